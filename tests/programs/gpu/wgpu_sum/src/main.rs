//! A sum reduction on the GPU with wgpu (Vulkan): `wgpu_sum [N] [ROUNDS]`
//! sums N numbers (default 4M) ROUNDS times (default 3), each round one
//! submission of three compute passes (N -> N/256 -> N/65536 -> 1 partial
//! sums, the entry point `reduce`), then a copy of the result for the host.
//!
//! It measures its own truth for genba's tests: each pass's device times
//! from its own timestamp queries (the pass's beginning and end), and each
//! round's submission bracketed with CLOCK_MONOTONIC (before the submit,
//! after the wait that saw it complete). It prints one JSON object:
//! {"ok", "sum", "expected", "wall_ns" (its own run, for bench/gpu.sh),
//! "adapter", "period" (ns a tick), "dispatches": [{"entry",
//! "groups": [x, y, z], "start", "end" (ticks), "before", "after" (ns)}]}.

use std::sync::mpsc;
use wgpu::util::DeviceExt;

const SHADER: &str = r#"
@group(0) @binding(0) var<storage, read> input: array<u32>;
@group(0) @binding(1) var<storage, read_write> output: array<u32>;
var<workgroup> part: array<u32, 256>;

@compute @workgroup_size(256)
fn reduce(@builtin(local_invocation_index) lid: u32,
          @builtin(workgroup_id) wid: vec3<u32>) {
    let i = wid.x * 256u + lid;
    var v = 0u;
    if (i < arrayLength(&input)) {
        v = input[i];
    }
    part[lid] = v;
    workgroupBarrier();
    for (var s = 128u; s > 0u; s = s >> 1u) {
        if (lid < s) {
            part[lid] = part[lid] + part[lid + s];
        }
        workgroupBarrier();
    }
    if (lid == 0u) {
        output[wid.x] = part[0];
    }
}
"#;

fn monotonic() -> u64 {
    let mut ts = libc::timespec {
        tv_sec: 0,
        tv_nsec: 0,
    };
    // SAFETY: a valid timespec to fill
    unsafe { libc::clock_gettime(libc::CLOCK_MONOTONIC, &mut ts) };
    ts.tv_sec as u64 * 1_000_000_000 + ts.tv_nsec as u64
}

fn fail(what: &str) -> ! {
    println!("{{\"ok\": false, \"error\": {what:?}}}");
    std::process::exit(1);
}

/// Maps `buf` for reading and waits for it; the bytes as u32s or u64s.
fn read_back(device: &wgpu::Device, buf: &wgpu::Buffer) -> Vec<u8> {
    let (tx, rx) = mpsc::channel();
    buf.map_async(wgpu::MapMode::Read, .., move |r| {
        let _ = tx.send(r);
    });
    if device.poll(wgpu::PollType::wait_indefinitely()).is_err() {
        fail("poll");
    }
    match rx.recv() {
        Ok(Ok(())) => {}
        _ => fail("map"),
    }
    let v = match buf.get_mapped_range(..) {
        Ok(v) => v.to_vec(),
        Err(_) => fail("mapped range"),
    };
    buf.unmap();
    v
}

fn main() {
    let began = monotonic();
    let mut args = std::env::args().skip(1);
    let n: u32 = args
        .next()
        .map_or(1 << 22, |a| a.parse().unwrap_or(1 << 22));
    let rounds: u32 = args.next().map_or(3, |a| a.parse().unwrap_or(3));
    let groups1 = n.div_ceil(256);
    let groups2 = groups1.div_ceil(256);
    let groups3 = groups2.div_ceil(256);
    if groups3 != 1 {
        fail("N above 2^24");
    }

    let instance = wgpu::Instance::new(wgpu::InstanceDescriptor {
        backends: wgpu::Backends::VULKAN,
        ..wgpu::InstanceDescriptor::new_without_display_handle()
    });
    let adapter =
        match pollster::block_on(instance.request_adapter(&wgpu::RequestAdapterOptions::default()))
        {
            Ok(a) => a,
            Err(_) => fail("no Vulkan adapter"),
        };
    if !adapter.features().contains(wgpu::Features::TIMESTAMP_QUERY) {
        fail("no timestamp queries");
    }
    let (device, queue) =
        match pollster::block_on(adapter.request_device(&wgpu::DeviceDescriptor {
            label: Some("wgpu_sum"),
            required_features: wgpu::Features::TIMESTAMP_QUERY,
            ..Default::default()
        })) {
            Ok(x) => x,
            Err(_) => fail("no device"),
        };

    // the numbers, and their sum on the CPU
    let data: Vec<u32> = (0..n)
        .map(|i| (i.wrapping_mul(2_654_435_761) >> 28) & 15)
        .collect();
    let expected: u64 = data.iter().map(|&v| v as u64).sum();
    let bytes: Vec<u8> = data.iter().flat_map(|v| v.to_le_bytes()).collect();
    let storage = wgpu::BufferUsages::STORAGE | wgpu::BufferUsages::COPY_SRC;
    let input = device.create_buffer_init(&wgpu::util::BufferInitDescriptor {
        label: Some("input"),
        contents: &bytes,
        usage: storage,
    });
    let partial = |len: u32, label| {
        device.create_buffer(&wgpu::BufferDescriptor {
            label: Some(label),
            size: len as u64 * 4,
            usage: storage,
            mapped_at_creation: false,
        })
    };
    let p1 = partial(groups1, "p1");
    let p2 = partial(groups2, "p2");
    let p3 = partial(1, "p3");
    let result = device.create_buffer(&wgpu::BufferDescriptor {
        label: Some("result"),
        size: 4,
        usage: wgpu::BufferUsages::MAP_READ | wgpu::BufferUsages::COPY_DST,
        mapped_at_creation: false,
    });

    let module = device.create_shader_module(wgpu::ShaderModuleDescriptor {
        label: Some("reduce"),
        source: wgpu::ShaderSource::Wgsl(SHADER.into()),
    });
    let pipeline = device.create_compute_pipeline(&wgpu::ComputePipelineDescriptor {
        label: Some("reduce"),
        layout: None,
        module: &module,
        entry_point: Some("reduce"),
        compilation_options: Default::default(),
        cache: None,
    });
    let layout = pipeline.get_bind_group_layout(0);
    let bind = |from: &wgpu::Buffer, to: &wgpu::Buffer| {
        device.create_bind_group(&wgpu::BindGroupDescriptor {
            label: None,
            layout: &layout,
            entries: &[
                wgpu::BindGroupEntry {
                    binding: 0,
                    resource: from.as_entire_binding(),
                },
                wgpu::BindGroupEntry {
                    binding: 1,
                    resource: to.as_entire_binding(),
                },
            ],
        })
    };
    let passes = [
        (bind(&input, &p1), groups1),
        (bind(&p1, &p2), groups2),
        (bind(&p2, &p3), groups3),
    ];

    let queries = passes.len() as u32 * 2;
    let query_set = device.create_query_set(&wgpu::QuerySetDescriptor {
        label: Some("passes"),
        ty: wgpu::QueryType::Timestamp,
        count: queries,
    });
    let resolved = device.create_buffer(&wgpu::BufferDescriptor {
        label: Some("resolved"),
        size: queries as u64 * 8,
        usage: wgpu::BufferUsages::QUERY_RESOLVE | wgpu::BufferUsages::COPY_SRC,
        mapped_at_creation: false,
    });
    let times = device.create_buffer(&wgpu::BufferDescriptor {
        label: Some("times"),
        size: queries as u64 * 8,
        usage: wgpu::BufferUsages::MAP_READ | wgpu::BufferUsages::COPY_DST,
        mapped_at_creation: false,
    });

    let mut ok = true;
    let mut sum = 0u32;
    let mut dispatches = Vec::new();
    for _ in 0..rounds {
        let mut enc = device.create_command_encoder(&wgpu::CommandEncoderDescriptor {
            label: Some("round"),
        });
        for (k, (group, count)) in passes.iter().enumerate() {
            let mut pass = enc.begin_compute_pass(&wgpu::ComputePassDescriptor {
                label: Some("reduce"),
                timestamp_writes: Some(wgpu::ComputePassTimestampWrites {
                    query_set: &query_set,
                    beginning_of_pass_write_index: Some(2 * k as u32),
                    end_of_pass_write_index: Some(2 * k as u32 + 1),
                }),
            });
            pass.set_pipeline(&pipeline);
            pass.set_bind_group(0, group, &[]);
            pass.dispatch_workgroups(*count, 1, 1);
        }
        enc.resolve_query_set(&query_set, 0..queries, &resolved, 0);
        enc.copy_buffer_to_buffer(&resolved, 0, &times, 0, queries as u64 * 8);
        enc.copy_buffer_to_buffer(&p3, 0, &result, 0, 4);
        let before = monotonic();
        let index = queue.submit([enc.finish()]);
        let waited = device.poll(wgpu::PollType::Wait {
            submission_index: Some(index),
            timeout: None,
        });
        let after = monotonic();
        if waited.is_err() {
            fail("wait");
        }
        let r = read_back(&device, &result);
        sum = u32::from_le_bytes([r[0], r[1], r[2], r[3]]);
        ok &= sum as u64 == expected;
        let t = read_back(&device, &times);
        let tick = |i: usize| u64::from_le_bytes(t[8 * i..8 * i + 8].try_into().unwrap_or([0; 8]));
        for (k, (_, count)) in passes.iter().enumerate() {
            dispatches.push(format!(
                "{{\"entry\": \"reduce\", \"groups\": [{count}, 1, 1], \"start\": {}, \"end\": {}, \"before\": {before}, \"after\": {after}}}",
                tick(2 * k),
                tick(2 * k + 1)
            ));
        }
    }
    println!(
        "{{\"ok\": {ok}, \"sum\": {sum}, \"expected\": {expected}, \"wall_ns\": {}, \"adapter\": {:?}, \"period\": {}, \"dispatches\": [{}]}}",
        monotonic() - began,
        adapter.get_info().name,
        queue.get_timestamp_period(),
        dispatches.join(", ")
    );
    if !ok {
        std::process::exit(1);
    }
}
