/*
 * drm: the DRM core's ioctls with filled structures, on /dev/null (no DRM
 * device needed: ioctl decoding goes by the request code). Plainly traced
 * every call fails with ENOTTY and shows what the kernel would read; under
 * `-e inject=ioctl:retval=0` every call "succeeds" without the kernel
 * touching the structures, so the values put in their output fields here
 * are what the decoder prints after ` => `.
 *
 * The structures are copied from the uapi drm.h under names of their own
 * (the header comes with libdrm-dev, which the tests do not need); when the
 * header is there, the request codes and constants are checked against it.
 */
#include <fcntl.h>
#include <linux/ioctl.h>
#include <stdint.h>
#include <sys/ioctl.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

struct t_version {
	int version_major, version_minor, version_patchlevel;
	size_t name_len;
	char *name;
	size_t date_len;
	char *date;
	size_t desc_len;
	char *desc;
};
struct t_unique {
	size_t unique_len;
	char *unique;
};
struct t_auth {
	unsigned int magic;
};
struct t_irq_busid {
	int irq, busnum, devnum, funcnum;
};
struct t_set_version {
	int drm_di_major, drm_di_minor, drm_dd_major, drm_dd_minor;
};
struct t_gem_close {
	uint32_t handle, pad;
};
struct t_gem_flink {
	uint32_t handle, name;
};
struct t_gem_open {
	uint32_t name, handle;
	uint64_t size;
};
struct t_cap {
	uint64_t capability, value;
};
struct t_prime_handle {
	uint32_t handle, flags;
	int32_t fd;
};
struct t_crtc_get_sequence {
	uint32_t crtc_id, active;
	uint64_t sequence;
	int64_t sequence_ns;
};
struct t_crtc_queue_sequence {
	uint32_t crtc_id, flags;
	uint64_t sequence, user_data;
};
struct t_create_dumb {
	uint32_t height, width, bpp, flags, handle, pitch;
	uint64_t size;
};
struct t_map_dumb {
	uint32_t handle, pad;
	uint64_t offset;
};
struct t_destroy_dumb {
	uint32_t handle;
};
struct t_syncobj_create {
	uint32_t handle, flags;
};
struct t_syncobj_handle {
	uint32_t handle, flags;
	int32_t fd;
	uint32_t pad;
};
struct t_syncobj_wait {
	uint64_t handles;
	int64_t timeout_nsec;
	uint32_t count_handles, flags, first_signaled, pad;
};
struct t_syncobj_timeline_wait {
	uint64_t handles, points;
	int64_t timeout_nsec;
	uint32_t count_handles, flags, first_signaled, pad;
};
struct t_syncobj_array {
	uint64_t handles;
	uint32_t count_handles, pad;
};
struct t_syncobj_timeline_array {
	uint64_t handles, points;
	uint32_t count_handles, flags;
};
struct t_client {
	int idx, auth;
	unsigned long pid, uid, magic, iocs;
};
struct t_wait_vblank {
	unsigned int type, sequence;
	long tval_sec, tval_usec; /* the request's `unsigned long signal` is the first */
};
struct t_card_res {
	uint64_t fb_id_ptr, crtc_id_ptr, connector_id_ptr, encoder_id_ptr;
	uint32_t count_fbs, count_crtcs, count_connectors, count_encoders;
	uint32_t min_width, max_width, min_height, max_height;
};
struct t_plane_res {
	uint64_t plane_id_ptr;
	uint32_t count_planes;
};
struct t_get_encoder {
	uint32_t encoder_id, encoder_type, crtc_id, possible_crtcs, possible_clones;
};
struct t_fb_cmd {
	uint32_t fb_id, width, height, pitch, bpp, depth, handle;
};
struct t_fb_cmd2 {
	uint32_t fb_id, width, height, pixel_format, flags;
	uint32_t handles[4], pitches[4], offsets[4];
	uint64_t modifier[4];
};
struct t_page_flip {
	uint32_t crtc_id, fb_id, flags, reserved;
	uint64_t user_data;
};
struct t_create_blob {
	uint64_t data;
	uint32_t length, blob_id;
};
struct t_modeinfo {
	uint32_t clock;
	uint16_t hdisplay, hsync_start, hsync_end, htotal, hskew;
	uint16_t vdisplay, vsync_start, vsync_end, vtotal, vscan;
	uint32_t vrefresh, flags, type;
	char name[32];
};
struct t_crtc {
	uint64_t set_connectors_ptr;
	uint32_t count_connectors, crtc_id, fb_id, x, y, gamma_size, mode_valid;
	struct t_modeinfo mode;
};
struct t_cursor {
	uint32_t flags, crtc_id;
	int32_t x, y;
	uint32_t width, height, handle;
};
struct t_get_connector {
	uint64_t encoders_ptr, modes_ptr, props_ptr, prop_values_ptr;
	uint32_t count_modes, count_props, count_encoders;
	uint32_t encoder_id, connector_id, connector_type, connector_type_id;
	uint32_t connection, mm_width, mm_height, subpixel, pad;
};
struct t_get_blob {
	uint32_t blob_id, length;
	uint64_t data;
};
struct t_get_plane {
	uint32_t plane_id, crtc_id, fb_id, possible_crtcs, gamma_size;
	uint32_t count_format_types;
	uint64_t format_type_ptr;
};
struct t_set_plane {
	uint32_t plane_id, crtc_id, fb_id, flags;
	int32_t crtc_x, crtc_y;
	uint32_t crtc_w, crtc_h, src_x, src_y, src_h, src_w;
};
struct t_obj_get_properties {
	uint64_t props_ptr, prop_values_ptr;
	uint32_t count_props, obj_id, obj_type;
};
struct t_obj_set_property {
	uint64_t value;
	uint32_t prop_id, obj_id, obj_type;
};
struct t_atomic {
	uint32_t flags, count_objs;
	uint64_t objs_ptr, count_props_ptr, props_ptr, prop_values_ptr, reserved, user_data;
};
struct t_get_property {
	uint64_t values_ptr, enum_blob_ptr;
	uint32_t prop_id, flags;
	char name[32];
	uint32_t count_values, count_enum_blobs;
};
struct t_property_enum {
	uint64_t value;
	char name[32];
};
struct t_syncobj_transfer {
	uint32_t src_handle, dst_handle;
	uint64_t src_point, dst_point;
	uint32_t flags, pad;
};

#define T_VERSION _IOWR('d', 0x00, struct t_version)
#define T_GET_CLIENT _IOWR('d', 0x05, struct t_client)
#define T_WAIT_VBLANK _IOWR('d', 0x3a, struct t_wait_vblank)
#define T_MODE_GETRESOURCES _IOWR('d', 0xa0, struct t_card_res)
#define T_MODE_GETCRTC _IOWR('d', 0xa1, struct t_crtc)
#define T_MODE_SETCRTC _IOWR('d', 0xa2, struct t_crtc)
#define T_MODE_CURSOR _IOWR('d', 0xa3, struct t_cursor)
#define T_MODE_GETCONNECTOR _IOWR('d', 0xa7, struct t_get_connector)
#define T_MODE_GETPROPERTY _IOWR('d', 0xaa, struct t_get_property)
#define T_MODE_GETPROPBLOB _IOWR('d', 0xac, struct t_get_blob)
#define T_MODE_GETPLANE _IOWR('d', 0xb6, struct t_get_plane)
#define T_MODE_SETPLANE _IOWR('d', 0xb7, struct t_set_plane)
#define T_MODE_OBJ_GETPROPERTIES _IOWR('d', 0xb9, struct t_obj_get_properties)
#define T_MODE_OBJ_SETPROPERTY _IOWR('d', 0xba, struct t_obj_set_property)
#define T_MODE_ATOMIC _IOWR('d', 0xbc, struct t_atomic)
#define T_MODE_GETENCODER _IOWR('d', 0xa6, struct t_get_encoder)
#define T_MODE_GETFB _IOWR('d', 0xad, struct t_fb_cmd)
#define T_MODE_ADDFB _IOWR('d', 0xae, struct t_fb_cmd)
#define T_MODE_PAGE_FLIP _IOWR('d', 0xb0, struct t_page_flip)
#define T_MODE_GETPLANERESOURCES _IOWR('d', 0xb5, struct t_plane_res)
#define T_MODE_ADDFB2 _IOWR('d', 0xb8, struct t_fb_cmd2)
#define T_MODE_CREATEPROPBLOB _IOWR('d', 0xbd, struct t_create_blob)
#define T_MODE_DESTROYPROPBLOB _IOWR('d', 0xbe, struct t_destroy_dumb)
#define T_MODE_GETFB2 _IOWR('d', 0xce, struct t_fb_cmd2)
#define T_GET_UNIQUE _IOWR('d', 0x01, struct t_unique)
#define T_GET_MAGIC _IOR('d', 0x02, struct t_auth)
#define T_IRQ_BUSID _IOWR('d', 0x03, struct t_irq_busid)
#define T_SET_VERSION _IOWR('d', 0x07, struct t_set_version)
#define T_GEM_CLOSE _IOW('d', 0x09, struct t_gem_close)
#define T_GEM_FLINK _IOWR('d', 0x0a, struct t_gem_flink)
#define T_GEM_OPEN _IOWR('d', 0x0b, struct t_gem_open)
#define T_GET_CAP _IOWR('d', 0x0c, struct t_cap)
#define T_SET_CLIENT_CAP _IOW('d', 0x0d, struct t_cap)
#define T_SET_UNIQUE _IOW('d', 0x10, struct t_unique)
#define T_AUTH_MAGIC _IOW('d', 0x11, struct t_auth)
#define T_PRIME_HANDLE_TO_FD _IOWR('d', 0x2d, struct t_prime_handle)
#define T_PRIME_FD_TO_HANDLE _IOWR('d', 0x2e, struct t_prime_handle)
#define T_CRTC_GET_SEQUENCE _IOWR('d', 0x3b, struct t_crtc_get_sequence)
#define T_CRTC_QUEUE_SEQUENCE _IOWR('d', 0x3c, struct t_crtc_queue_sequence)
#define T_MODE_RMFB _IOWR('d', 0xaf, unsigned int)
#define T_MODE_CREATE_DUMB _IOWR('d', 0xb2, struct t_create_dumb)
#define T_MODE_MAP_DUMB _IOWR('d', 0xb3, struct t_map_dumb)
#define T_MODE_DESTROY_DUMB _IOWR('d', 0xb4, struct t_destroy_dumb)
#define T_SYNCOBJ_CREATE _IOWR('d', 0xbf, struct t_syncobj_create)
#define T_SYNCOBJ_DESTROY _IOWR('d', 0xc0, struct t_gem_close)
#define T_SYNCOBJ_HANDLE_TO_FD _IOWR('d', 0xc1, struct t_syncobj_handle)
#define T_SYNCOBJ_FD_TO_HANDLE _IOWR('d', 0xc2, struct t_syncobj_handle)
#define T_SYNCOBJ_WAIT _IOWR('d', 0xc3, struct t_syncobj_wait)
#define T_SYNCOBJ_RESET _IOWR('d', 0xc4, struct t_syncobj_array)
#define T_SYNCOBJ_SIGNAL _IOWR('d', 0xc5, struct t_syncobj_array)
#define T_SYNCOBJ_TIMELINE_WAIT _IOWR('d', 0xca, struct t_syncobj_timeline_wait)
#define T_SYNCOBJ_QUERY _IOWR('d', 0xcb, struct t_syncobj_timeline_array)
#define T_SYNCOBJ_TRANSFER _IOWR('d', 0xcc, struct t_syncobj_transfer)
#define T_SYNCOBJ_TIMELINE_SIGNAL _IOWR('d', 0xcd, struct t_syncobj_timeline_array)

#if __has_include(<libdrm/drm.h>)
#include <libdrm/drm.h>
#define SAME(a, b) _Static_assert((unsigned long)(a) == (unsigned long)(b), #a)
SAME(T_VERSION, DRM_IOCTL_VERSION);
SAME(T_GET_UNIQUE, DRM_IOCTL_GET_UNIQUE);
SAME(T_GET_CLIENT, DRM_IOCTL_GET_CLIENT);
SAME(T_WAIT_VBLANK, DRM_IOCTL_WAIT_VBLANK);
SAME(T_MODE_GETRESOURCES, DRM_IOCTL_MODE_GETRESOURCES);
SAME(T_MODE_GETENCODER, DRM_IOCTL_MODE_GETENCODER);
SAME(T_MODE_GETCRTC, DRM_IOCTL_MODE_GETCRTC);
SAME(T_MODE_SETCRTC, DRM_IOCTL_MODE_SETCRTC);
SAME(T_MODE_CURSOR, DRM_IOCTL_MODE_CURSOR);
SAME(T_MODE_GETCONNECTOR, DRM_IOCTL_MODE_GETCONNECTOR);
SAME(T_MODE_GETPROPBLOB, DRM_IOCTL_MODE_GETPROPBLOB);
SAME(T_MODE_GETPROPERTY, DRM_IOCTL_MODE_GETPROPERTY);
SAME(sizeof(struct t_property_enum), sizeof(struct drm_mode_property_enum));
SAME(0x80000008, DRM_MODE_PROP_ENUM | DRM_MODE_PROP_ATOMIC);
SAME(T_MODE_GETPLANE, DRM_IOCTL_MODE_GETPLANE);
SAME(T_MODE_SETPLANE, DRM_IOCTL_MODE_SETPLANE);
SAME(T_MODE_OBJ_GETPROPERTIES, DRM_IOCTL_MODE_OBJ_GETPROPERTIES);
SAME(T_MODE_OBJ_SETPROPERTY, DRM_IOCTL_MODE_OBJ_SETPROPERTY);
SAME(T_MODE_ATOMIC, DRM_IOCTL_MODE_ATOMIC);
SAME(sizeof(struct t_modeinfo), sizeof(struct drm_mode_modeinfo));
SAME(0x48, DRM_MODE_TYPE_PREFERRED | DRM_MODE_TYPE_DRIVER);
SAME(0x5, DRM_MODE_FLAG_PHSYNC | DRM_MODE_FLAG_PVSYNC);
SAME(11, DRM_MODE_CONNECTOR_HDMIA);
SAME(0xcccccccc, DRM_MODE_OBJECT_CRTC);
SAME(0x3, DRM_MODE_CURSOR_BO | DRM_MODE_CURSOR_MOVE);
SAME(0x601, DRM_MODE_PAGE_FLIP_EVENT | DRM_MODE_ATOMIC_NONBLOCK | DRM_MODE_ATOMIC_ALLOW_MODESET);
SAME(T_MODE_GETFB, DRM_IOCTL_MODE_GETFB);
SAME(T_MODE_ADDFB, DRM_IOCTL_MODE_ADDFB);
SAME(T_MODE_PAGE_FLIP, DRM_IOCTL_MODE_PAGE_FLIP);
SAME(T_MODE_GETPLANERESOURCES, DRM_IOCTL_MODE_GETPLANERESOURCES);
SAME(T_MODE_ADDFB2, DRM_IOCTL_MODE_ADDFB2);
SAME(T_MODE_CREATEPROPBLOB, DRM_IOCTL_MODE_CREATEPROPBLOB);
SAME(T_MODE_DESTROYPROPBLOB, DRM_IOCTL_MODE_DESTROYPROPBLOB);
SAME(T_MODE_GETFB2, DRM_IOCTL_MODE_GETFB2);
SAME(0x4000001, _DRM_VBLANK_RELATIVE | _DRM_VBLANK_EVENT);
SAME(2, DRM_MODE_ENCODER_TMDS);
SAME(2, DRM_MODE_FB_MODIFIERS);
SAME(0x5, DRM_MODE_PAGE_FLIP_EVENT | DRM_MODE_PAGE_FLIP_TARGET_ABSOLUTE);
SAME(T_GET_MAGIC, DRM_IOCTL_GET_MAGIC);
SAME(T_IRQ_BUSID, DRM_IOCTL_IRQ_BUSID);
SAME(T_SET_VERSION, DRM_IOCTL_SET_VERSION);
SAME(T_GEM_CLOSE, DRM_IOCTL_GEM_CLOSE);
SAME(T_GEM_FLINK, DRM_IOCTL_GEM_FLINK);
SAME(T_GEM_OPEN, DRM_IOCTL_GEM_OPEN);
SAME(T_GET_CAP, DRM_IOCTL_GET_CAP);
SAME(T_SET_CLIENT_CAP, DRM_IOCTL_SET_CLIENT_CAP);
SAME(T_SET_UNIQUE, DRM_IOCTL_SET_UNIQUE);
SAME(T_AUTH_MAGIC, DRM_IOCTL_AUTH_MAGIC);
SAME(T_PRIME_HANDLE_TO_FD, DRM_IOCTL_PRIME_HANDLE_TO_FD);
SAME(T_PRIME_FD_TO_HANDLE, DRM_IOCTL_PRIME_FD_TO_HANDLE);
SAME(T_CRTC_GET_SEQUENCE, DRM_IOCTL_CRTC_GET_SEQUENCE);
SAME(T_CRTC_QUEUE_SEQUENCE, DRM_IOCTL_CRTC_QUEUE_SEQUENCE);
SAME(T_MODE_RMFB, DRM_IOCTL_MODE_RMFB);
SAME(T_MODE_CREATE_DUMB, DRM_IOCTL_MODE_CREATE_DUMB);
SAME(T_MODE_MAP_DUMB, DRM_IOCTL_MODE_MAP_DUMB);
SAME(T_MODE_DESTROY_DUMB, DRM_IOCTL_MODE_DESTROY_DUMB);
SAME(T_SYNCOBJ_CREATE, DRM_IOCTL_SYNCOBJ_CREATE);
SAME(T_SYNCOBJ_DESTROY, DRM_IOCTL_SYNCOBJ_DESTROY);
SAME(T_SYNCOBJ_HANDLE_TO_FD, DRM_IOCTL_SYNCOBJ_HANDLE_TO_FD);
SAME(T_SYNCOBJ_FD_TO_HANDLE, DRM_IOCTL_SYNCOBJ_FD_TO_HANDLE);
SAME(T_SYNCOBJ_WAIT, DRM_IOCTL_SYNCOBJ_WAIT);
SAME(T_SYNCOBJ_RESET, DRM_IOCTL_SYNCOBJ_RESET);
SAME(T_SYNCOBJ_SIGNAL, DRM_IOCTL_SYNCOBJ_SIGNAL);
SAME(T_SYNCOBJ_TIMELINE_WAIT, DRM_IOCTL_SYNCOBJ_TIMELINE_WAIT);
SAME(T_SYNCOBJ_QUERY, DRM_IOCTL_SYNCOBJ_QUERY);
SAME(T_SYNCOBJ_TRANSFER, DRM_IOCTL_SYNCOBJ_TRANSFER);
SAME(T_SYNCOBJ_TIMELINE_SIGNAL, DRM_IOCTL_SYNCOBJ_TIMELINE_SIGNAL);
SAME(5, DRM_CAP_PRIME);
SAME(0x13, DRM_CAP_SYNCOBJ);
SAME(3, DRM_CLIENT_CAP_ATOMIC);
SAME(0x80002, DRM_CLOEXEC | DRM_RDWR);
SAME(1, DRM_SYNCOBJ_CREATE_SIGNALED);
SAME(3, DRM_SYNCOBJ_WAIT_FLAGS_WAIT_ALL | DRM_SYNCOBJ_WAIT_FLAGS_WAIT_FOR_SUBMIT);
SAME(1, DRM_SYNCOBJ_QUERY_FLAGS_LAST_SUBMITTED);
SAME(3, DRM_CRTC_SEQUENCE_RELATIVE | DRM_CRTC_SEQUENCE_NEXT_ON_MISS);
#endif

/* the strings and arrays one pointer away: static, as the tracer reads
 * them from this process when it prints the line */
static char name[] = "genba";
static char date[] = "20261125";
static char desc[] = "a description longer than thirty-two bytes";
static char uniq[] = "pci:0000:00:02.0";
static uint32_t handles[] = { 7, 8, 9 };
static uint64_t points[] = { 100, 200, 300 };
static uint32_t crtcs[] = { 31, 32 }, connectors[] = { 41 }, encoders[] = { 51, 52 };
static uint32_t planes[] = { 61, 62, 63 };
static char blob[] = "\x01\x02mode";
static struct t_modeinfo modes[] = {
	{ 148500, 1920, 2008, 2052, 2200, 0, 1080, 1084, 1089, 1125, 0, 60, 0x5, 0x48, "1920x1080" },
	{ 74250, 1280, 1390, 1430, 1650, 0, 720, 725, 730, 750, 0, 60, 0x5, 0x40, "1280x720" },
};
static uint32_t props[] = { 21, 22, 23, 24, 25 };
static uint64_t values[] = { 1, 2, 3, 4, 5 };
static uint32_t objs[] = { 31, 41 }, obj_props[] = { 2, 3 };
static struct t_property_enum dpms[] = { { 0, "On" }, { 3, "Off" } };
static uint32_t formats[] = { 0x34325258, 0x34325241 }; /* XR24, AR24 */

int main(void)
{
	syscall(SYS_getppid); /* start marker */
	int fd = open("/dev/null", O_RDWR);

	struct t_version v = { 1, 6, 2, 5, name, 8, date, sizeof(desc) - 1, desc };
	ioctl(fd, T_VERSION, &v);
	struct t_version vnull = { 0, 0, 0, 0, NULL, 0, NULL, 0, NULL };
	ioctl(fd, T_VERSION, &vnull);

	struct t_unique u = { sizeof(uniq) - 1, uniq };
	ioctl(fd, T_GET_UNIQUE, &u);
	ioctl(fd, T_SET_UNIQUE, &u);

	struct t_auth a = { 0x1234 };
	ioctl(fd, T_GET_MAGIC, &a);
	ioctl(fd, T_AUTH_MAGIC, &a);

	struct t_irq_busid b = { 11, 1, 2, 3 };
	ioctl(fd, T_IRQ_BUSID, &b);

	struct t_set_version sv = { 1, 4, -1, -1 };
	ioctl(fd, T_SET_VERSION, &sv);

	struct t_gem_close gc = { 42, 0 };
	ioctl(fd, T_GEM_CLOSE, &gc);
	struct t_gem_flink gf = { 42, 17 };
	ioctl(fd, T_GEM_FLINK, &gf);
	struct t_gem_open go = { 17, 43, 65536 };
	ioctl(fd, T_GEM_OPEN, &go);

	struct t_cap c1 = { 0x5, 3 }; /* DRM_CAP_PRIME: import|export */
	ioctl(fd, T_GET_CAP, &c1);
	struct t_cap c2 = { 0x13, 1 }; /* DRM_CAP_SYNCOBJ */
	ioctl(fd, T_GET_CAP, &c2);
	struct t_cap c3 = { 0x99, 0 }; /* nobody's */
	ioctl(fd, T_GET_CAP, &c3);
	struct t_cap cc = { 3, 1 }; /* DRM_CLIENT_CAP_ATOMIC */
	ioctl(fd, T_SET_CLIENT_CAP, &cc);

	struct t_prime_handle ph = { 42, 0x80002, 5 };
	ioctl(fd, T_PRIME_HANDLE_TO_FD, &ph);
	struct t_prime_handle pf = { 44, 0, 5 };
	ioctl(fd, T_PRIME_FD_TO_HANDLE, &pf);

	struct t_crtc_get_sequence gs = { 31, 1, 1000, 123456789 };
	ioctl(fd, T_CRTC_GET_SEQUENCE, &gs);
	struct t_crtc_queue_sequence qs = { 31, 3, 5, 0xfeed };
	ioctl(fd, T_CRTC_QUEUE_SEQUENCE, &qs);

	unsigned int fb = 55;
	ioctl(fd, T_MODE_RMFB, &fb);
	struct t_create_dumb cd = { 480, 640, 32, 0, 3, 2560, 1228800 };
	ioctl(fd, T_MODE_CREATE_DUMB, &cd);
	struct t_map_dumb md = { 3, 0, 0x20000000 };
	ioctl(fd, T_MODE_MAP_DUMB, &md);
	struct t_destroy_dumb dd = { 3 };
	ioctl(fd, T_MODE_DESTROY_DUMB, &dd);

	struct t_syncobj_create sc = { 6, 1 };
	ioctl(fd, T_SYNCOBJ_CREATE, &sc);
	struct t_gem_close sd = { 6, 0 };
	ioctl(fd, T_SYNCOBJ_DESTROY, &sd);
	struct t_syncobj_handle h2f = { 6, 1, 9, 0 };
	ioctl(fd, T_SYNCOBJ_HANDLE_TO_FD, &h2f);
	struct t_syncobj_handle f2h = { 6, 0, 9, 0 };
	ioctl(fd, T_SYNCOBJ_FD_TO_HANDLE, &f2h);

	struct t_syncobj_wait sw = { (uintptr_t)handles, 5000000000LL, 3, 3, 1, 0 };
	ioctl(fd, T_SYNCOBJ_WAIT, &sw);
	struct t_syncobj_timeline_wait tw = {
		(uintptr_t)handles, (uintptr_t)points, -1, 2, 4, 0, 0
	};
	ioctl(fd, T_SYNCOBJ_TIMELINE_WAIT, &tw);
	struct t_syncobj_array sa = { (uintptr_t)handles, 3, 0 };
	ioctl(fd, T_SYNCOBJ_RESET, &sa);
	ioctl(fd, T_SYNCOBJ_SIGNAL, &sa);
	struct t_syncobj_timeline_array ta = { (uintptr_t)handles, (uintptr_t)points, 3, 1 };
	ioctl(fd, T_SYNCOBJ_QUERY, &ta);
	struct t_syncobj_timeline_array ts1 = { (uintptr_t)handles, (uintptr_t)points, 1, 0 };
	ioctl(fd, T_SYNCOBJ_TIMELINE_SIGNAL, &ts1);
	/* mode setting */
	struct t_client cl = { 0, 1, 1234, 1000, 0, 77 };
	ioctl(fd, T_GET_CLIENT, &cl);
	struct t_wait_vblank vb = { 0x4000001 | (2 << 1), 1, 0, 0 };
	ioctl(fd, T_WAIT_VBLANK, &vb);
	struct t_card_res cr = {
		0, (uintptr_t)crtcs, (uintptr_t)connectors, (uintptr_t)encoders,
		0, 2, 1, 2, 0, 8192, 0, 8192
	};
	ioctl(fd, T_MODE_GETRESOURCES, &cr);
	struct t_plane_res pr = { (uintptr_t)planes, 3 };
	ioctl(fd, T_MODE_GETPLANERESOURCES, &pr);
	struct t_get_encoder ge = { 51, 2, 31, 3, 0 };
	ioctl(fd, T_MODE_GETENCODER, &ge);
	struct t_fb_cmd fc = { 71, 640, 480, 2560, 32, 24, 3 };
	ioctl(fd, T_MODE_ADDFB, &fc);
	ioctl(fd, T_MODE_GETFB, &fc);
	struct t_fb_cmd2 f2 = {
		72, 640, 480, 0x34325258 /* XR24 */, 2,
		{ 3, 0, 0, 0 }, { 2560, 0, 0, 0 }, { 0, 0, 0, 0 },
		{ 0x0100000000000001ULL, 0, 0, 0 }
	};
	ioctl(fd, T_MODE_ADDFB2, &f2);
	ioctl(fd, T_MODE_GETFB2, &f2);
	struct t_page_flip pfl = { 31, 72, 0x5, 9, 0xabc };
	ioctl(fd, T_MODE_PAGE_FLIP, &pfl);
	struct t_create_blob cb = { (uintptr_t)blob, sizeof(blob) - 1, 81 };
	ioctl(fd, T_MODE_CREATEPROPBLOB, &cb);
	struct t_destroy_dumb db = { 81 };
	ioctl(fd, T_MODE_DESTROYPROPBLOB, &db);

	struct t_crtc gcr = { 0, 0, 31, 72, 0, 0, 256, 1, { 0 } };
	gcr.mode = modes[0];
	ioctl(fd, T_MODE_GETCRTC, &gcr);
	struct t_crtc scr = { (uintptr_t)connectors, 1, 31, 72, 0, 0, 0, 1, { 0 } };
	scr.mode = modes[1];
	ioctl(fd, T_MODE_SETCRTC, &scr);
	struct t_cursor cu = { 3, 31, -10, 20, 64, 64, 5 };
	ioctl(fd, T_MODE_CURSOR, &cu);
	struct t_get_connector gco = {
		(uintptr_t)encoders, (uintptr_t)modes, (uintptr_t)props, (uintptr_t)values,
		2, 3, 1, 51, 41, 11, 1, 1, 600, 340, 1, 0
	};
	ioctl(fd, T_MODE_GETCONNECTOR, &gco);
	struct t_get_property gpr = {
		(uintptr_t)values, (uintptr_t)dpms, 21, 0x80000008, "DPMS", 2, 2
	};
	ioctl(fd, T_MODE_GETPROPERTY, &gpr);
	struct t_get_blob gb = { 81, sizeof(blob) - 1, (uintptr_t)blob };
	ioctl(fd, T_MODE_GETPROPBLOB, &gb);
	struct t_get_plane gp = { 61, 31, 72, 1, 0, 2, (uintptr_t)formats };
	ioctl(fd, T_MODE_GETPLANE, &gp);
	struct t_set_plane sp = { 61, 31, 72, 0, -5, 0, 640, 480, 0, 0, 480 << 16, 640 << 16 };
	ioctl(fd, T_MODE_SETPLANE, &sp);
	struct t_obj_get_properties op = {
		(uintptr_t)props, (uintptr_t)values, 2, 31, 0xcccccccc
	};
	ioctl(fd, T_MODE_OBJ_GETPROPERTIES, &op);
	struct t_obj_set_property osp = { 1, 21, 41, 0xc0c0c0c0 };
	ioctl(fd, T_MODE_OBJ_SETPROPERTY, &osp);
	struct t_atomic at = {
		0x601, 2, (uintptr_t)objs, (uintptr_t)obj_props, (uintptr_t)props,
		(uintptr_t)values, 0, 0x1234
	};
	ioctl(fd, T_MODE_ATOMIC, &at);

	struct t_syncobj_transfer st = { 6, 7, 1, 2, 2, 0 };
	ioctl(fd, T_SYNCOBJ_TRANSFER, &st);

	close(fd);
	syscall(SYS_getppid); /* end marker */
	/* the tracer reads the strings and arrays from this process when it
	 * prints: stay a while so that it finds them */
	struct timespec ts = { 1, 0 };
	nanosleep(&ts, NULL);
	return 0;
}
