# Debian packages genba needs to build and test; sourced by setup.sh and .ci/run.
GENBA_DEBS="clang llvm libelf-dev zlib1g-dev pkg-config make gcc strace linux-perf bc python3-pip chromium ocl-icd-opencl-dev opencl-headers pocl-opencl-icd clinfo mesa-vulkan-drivers libvulkan-dev vulkan-tools glslang-tools"

genba_install_deps() {
    local missing=()
    for p in $GENBA_DEBS; do
        dpkg -s "$p" >/dev/null 2>&1 || missing+=("$p")
    done
    if [ ${#missing[@]} -gt 0 ]; then
        echo "installing: ${missing[*]}"
        apt-get update -qq
        DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "${missing[@]}" >/dev/null
    fi
    # Perfetto's official protobuf bindings: the tests check every Perfetto
    # file genba writes with them (scripts/check_perfetto.py)
    if ! python3 -c 'import perfetto.protos.perfetto.trace.perfetto_trace_pb2' >/dev/null 2>&1; then
        echo "installing: perfetto protobuf (PyPI)"
        python3 -m pip install -q --break-system-packages perfetto protobuf >/dev/null
    fi
    # the HTML report is tested in headless Chromium over its DevTools
    # protocol (scripts/check_html.py)
    if ! python3 -c 'import websocket' >/dev/null 2>&1; then
        echo "installing: websocket-client (PyPI)"
        python3 -m pip install -q --break-system-packages websocket-client >/dev/null
    fi
    # the CUDA runtime (libcudart, no driver: every call fails without a
    # device), to test genba's CUDA shim's interception and error paths
    if ! python3 -c 'import nvidia.cuda_runtime' >/dev/null 2>&1; then
        echo "installing: nvidia-cuda-runtime-cu12 (PyPI)"
        python3 -m pip install -q --break-system-packages 'nvidia-cuda-runtime-cu12>=12,<13' >/dev/null
    fi
    if ! command -v cargo >/dev/null 2>&1; then
        [ -f "$HOME/.cargo/env" ] && . "$HOME/.cargo/env"
    fi
    command -v cargo >/dev/null 2>&1 || { echo "cargo not found: install Rust (rustup) first" >&2; return 1; }
}
