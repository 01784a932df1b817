//===- Cuda.cpp - The CUDA driver API, loaded at run time -------*- C++ -*-===//
//
// Part of the uop project. The driver is dlopen'ed; the types and entry
// points below are the driver API's (cuda.h), declared here so that building
// needs no CUDA toolkit. Only ABI-stable entry points are used, by their
// versioned symbol names where cuda.h maps a name to a _v2 symbol.
//
//===----------------------------------------------------------------------===//

#include "Uop/Runtime/Cuda.h"
#include "Uop/Runtime/Memory.h"
#include "Uop/Runtime/Buffer.h"
#include "Uop/Runtime/Device.h"

#include <algorithm>
#include <cstdlib>
#include <cstring>
#include <dlfcn.h>
#include <functional>
#include <limits>
#include <map>
#include <mutex>

using namespace uop::rt;

namespace {
// The driver API's types (cuda.h): handles are pointers to opaque structs,
// CUdevice is an int, CUresult an enum (int-sized), CUdeviceptr 64-bit.
using CUresult = int;
using CUdevice = int;
using CUdeviceptr = unsigned long long;
using CUcontext = void *;
using CUmodule = void *;
using CUfunction = void *;
using CUstream = void *;
using CUevent = void *;
using CUgraph = void *;
using CUgraphExec = void *;
using CUgraphNode = void *;
using CUjit_option = int;

constexpr CUresult CUDA_SUCCESS = 0;
constexpr int CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR = 75;
constexpr int CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MINOR = 76;
constexpr CUjit_option CU_JIT_INFO_LOG_BUFFER = 3;
constexpr CUjit_option CU_JIT_INFO_LOG_BUFFER_SIZE_BYTES = 4;
constexpr CUjit_option CU_JIT_ERROR_LOG_BUFFER = 5;
constexpr CUjit_option CU_JIT_ERROR_LOG_BUFFER_SIZE_BYTES = 6;
constexpr unsigned CU_EVENT_DEFAULT = 0;
constexpr unsigned CU_STREAM_NON_BLOCKING = 1;
constexpr int CU_STREAM_CAPTURE_MODE_THREAD_LOCAL = 1;
constexpr int CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES = 8;
/// Dynamic shared memory a block may have without the function's opt-in.
constexpr unsigned kSharedWithoutOptin = 48 * 1024;
} // namespace

/// The driver's entry points this runtime calls.
struct CudaDevice::Driver {
  std::string library;
  void *handle = nullptr;
  CUresult initResult = -1;
  CUresult (*cuInit)(unsigned);
  CUresult (*cuDriverGetVersion)(int *);
  CUresult (*cuGetErrorName)(CUresult, const char **);
  CUresult (*cuGetErrorString)(CUresult, const char **);
  CUresult (*cuDeviceGetCount)(int *);
  CUresult (*cuDeviceGet)(CUdevice *, int);
  CUresult (*cuDeviceGetName)(char *, int, CUdevice);
  CUresult (*cuDeviceGetAttribute)(int *, int, CUdevice);
  CUresult (*cuDevicePrimaryCtxRetain)(CUcontext *, CUdevice);
  CUresult (*cuDevicePrimaryCtxRelease)(CUdevice);
  CUresult (*cuCtxSetCurrent)(CUcontext);
  CUresult (*cuCtxSynchronize)();
  CUresult (*cuModuleLoadDataEx)(CUmodule *, const void *, unsigned, CUjit_option *, void **);
  CUresult (*cuModuleUnload)(CUmodule);
  CUresult (*cuModuleGetFunction)(CUfunction *, CUmodule, const char *);
  CUresult (*cuMemAlloc)(CUdeviceptr *, size_t);
  CUresult (*cuMemFree)(CUdeviceptr);
  CUresult (*cuMemcpyHtoD)(CUdeviceptr, const void *, size_t);
  CUresult (*cuMemcpyDtoH)(void *, CUdeviceptr, size_t);
  CUresult (*cuMemsetD8)(CUdeviceptr, unsigned char, size_t);
  CUresult (*cuLaunchKernel)(CUfunction, unsigned, unsigned, unsigned, unsigned, unsigned, unsigned,
                             unsigned, CUstream, void **, void **);
  /// Raises a function's dynamic shared memory limit (CUDA 9+).
  CUresult (*cuFuncSetAttribute)(CUfunction, int, int) = nullptr;
  /// Encodes a TMA tensor map (CUDA 12+): the map (128 bytes, 64-aligned),
  /// data type, rank, global address, dims, strides (rank - 1), box, element
  /// strides, interleave, swizzle, L2 promotion, out-of-bounds fill.
  CUresult (*cuTensorMapEncodeTiled)(void *, int, unsigned, void *, const uint64_t *,
                                     const uint64_t *, const uint32_t *, const uint32_t *, int,
                                     int, int, int) = nullptr;
  CUresult (*cuEventCreate)(CUevent *, unsigned);
  CUresult (*cuEventDestroy)(CUevent);
  CUresult (*cuEventRecord)(CUevent, CUstream);
  CUresult (*cuEventSynchronize)(CUevent);
  CUresult (*cuEventElapsedTime)(float *, CUevent, CUevent);
  // Streams, asynchronous copies and graphs (CUDA 11.4+): loaded when the
  // driver has them, else null (CudaStream::create and CudaGraph::capture
  // say so).
  CUresult (*cuStreamCreate)(CUstream *, unsigned) = nullptr;
  CUresult (*cuStreamDestroy)(CUstream) = nullptr;
  CUresult (*cuStreamSynchronize)(CUstream) = nullptr;
  CUresult (*cuMemcpyDtoD)(CUdeviceptr, CUdeviceptr, size_t) = nullptr;
  CUresult (*cuMemcpyDtoDAsync)(CUdeviceptr, CUdeviceptr, size_t, CUstream) = nullptr;
  CUresult (*cuMemcpyHtoDAsync)(CUdeviceptr, const void *, size_t, CUstream) = nullptr;
  CUresult (*cuMemcpyDtoHAsync)(void *, CUdeviceptr, size_t, CUstream) = nullptr;
  CUresult (*cuMemsetD8Async)(CUdeviceptr, unsigned char, size_t, CUstream) = nullptr;
  CUresult (*cuStreamBeginCapture)(CUstream, int) = nullptr;
  CUresult (*cuStreamEndCapture)(CUstream, CUgraph *) = nullptr;
  CUresult (*cuGraphInstantiateWithFlags)(CUgraphExec *, CUgraph, unsigned long long) = nullptr;
  CUresult (*cuGraphGetNodes)(CUgraph, CUgraphNode *, size_t *) = nullptr;
  CUresult (*cuGraphLaunch)(CUgraphExec, CUstream) = nullptr;
  CUresult (*cuGraphExecDestroy)(CUgraphExec) = nullptr;
  CUresult (*cuGraphDestroy)(CUgraph) = nullptr;
  /// The first of the entry points above that the driver lacks ("" if none).
  std::string missingStreams;

  /// "CALL: NAME (DESCRIPTION)".
  std::string error(const char *call, CUresult rc) const {
    const char *name = nullptr, *desc = nullptr;
    if (cuGetErrorName(rc, &name) != CUDA_SUCCESS)
      name = nullptr;
    if (cuGetErrorString(rc, &desc) != CUDA_SUCCESS)
      desc = nullptr;
    std::string msg =
        std::string(call) + ": " + (name ? std::string(name) : "CUDA error " + std::to_string(rc));
    if (desc && *desc)
      msg += std::string(" (") + desc + ")";
    return msg;
  }
};

using Driver = CudaDevice::Driver;

bool uop::rt::isNoCudaDevice(const std::string &error) {
  return error.rfind(kNoCudaDevice, 0) == 0;
}

namespace {
std::mutex &driverMutex() {
  static std::mutex m;
  return m;
}

Error noDevice(const std::string &why) { return Error{kNoCudaDevice + why}; }

/// The driver in `library`, loaded and initialized (kept for the process:
/// the driver is never unloaded). Called under driverMutex().
Result<const Driver *> loadDriver(const std::string &library) {
  static std::map<std::string, std::unique_ptr<Driver>> loaded;
  if (auto it = loaded.find(library); it != loaded.end())
    return static_cast<const Driver *>(it->second.get());
  dlerror();
  void *handle = dlopen(library.c_str(), RTLD_NOW | RTLD_LOCAL);
  if (!handle) {
    const char *why = dlerror();
    std::string text = why ? why : "dlopen failed";
    bool missing = text.find("No such file") != std::string::npos;
    return noDevice(library + (missing ? " not found (" : " cannot be loaded (") + text + ")");
  }
  auto d = std::make_unique<Driver>();
  d->library = library;
  d->handle = handle;
  std::string missing;
  auto sym = [&](auto &fn, const char *name, const char *fallback = nullptr) {
    void *p = dlsym(handle, name);
    if (!p && fallback)
      p = dlsym(handle, fallback);
    if (!p && missing.empty())
      missing = name;
    fn = reinterpret_cast<std::remove_reference_t<decltype(fn)>>(p);
  };
  sym(d->cuInit, "cuInit");
  sym(d->cuDriverGetVersion, "cuDriverGetVersion");
  sym(d->cuGetErrorName, "cuGetErrorName");
  sym(d->cuGetErrorString, "cuGetErrorString");
  sym(d->cuDeviceGetCount, "cuDeviceGetCount");
  sym(d->cuDeviceGet, "cuDeviceGet");
  sym(d->cuDeviceGetName, "cuDeviceGetName");
  sym(d->cuDeviceGetAttribute, "cuDeviceGetAttribute");
  sym(d->cuDevicePrimaryCtxRetain, "cuDevicePrimaryCtxRetain");
  sym(d->cuDevicePrimaryCtxRelease, "cuDevicePrimaryCtxRelease_v2", "cuDevicePrimaryCtxRelease");
  sym(d->cuCtxSetCurrent, "cuCtxSetCurrent");
  sym(d->cuCtxSynchronize, "cuCtxSynchronize");
  sym(d->cuModuleLoadDataEx, "cuModuleLoadDataEx");
  sym(d->cuModuleUnload, "cuModuleUnload");
  sym(d->cuModuleGetFunction, "cuModuleGetFunction");
  sym(d->cuMemAlloc, "cuMemAlloc_v2");
  sym(d->cuMemFree, "cuMemFree_v2");
  sym(d->cuMemcpyHtoD, "cuMemcpyHtoD_v2");
  sym(d->cuMemcpyDtoH, "cuMemcpyDtoH_v2");
  sym(d->cuMemsetD8, "cuMemsetD8_v2");
  sym(d->cuLaunchKernel, "cuLaunchKernel");
  sym(d->cuEventCreate, "cuEventCreate");
  sym(d->cuEventDestroy, "cuEventDestroy_v2", "cuEventDestroy");
  sym(d->cuEventRecord, "cuEventRecord");
  sym(d->cuEventSynchronize, "cuEventSynchronize");
  // CUDA 12.8 added _v2 (the same signature); older drivers have only the first.
  sym(d->cuEventElapsedTime, "cuEventElapsedTime_v2", "cuEventElapsedTime");
  if (!missing.empty()) {
    dlclose(handle);
    return noDevice(library + " has no " + missing + " (not a CUDA driver, or one too old)");
  }
  auto optional = [&](auto &fn, const char *name) {
    fn = reinterpret_cast<std::remove_reference_t<decltype(fn)>>(dlsym(handle, name));
    if (!fn && d->missingStreams.empty())
      d->missingStreams = name;
  };
  d->cuFuncSetAttribute =
      reinterpret_cast<decltype(d->cuFuncSetAttribute)>(dlsym(handle, "cuFuncSetAttribute"));
  d->cuTensorMapEncodeTiled = reinterpret_cast<decltype(d->cuTensorMapEncodeTiled)>(
      dlsym(handle, "cuTensorMapEncodeTiled"));
  optional(d->cuStreamCreate, "cuStreamCreate");
  optional(d->cuStreamDestroy, "cuStreamDestroy_v2");
  optional(d->cuStreamSynchronize, "cuStreamSynchronize");
  optional(d->cuMemcpyDtoD, "cuMemcpyDtoD_v2");
  optional(d->cuMemcpyDtoDAsync, "cuMemcpyDtoDAsync_v2");
  optional(d->cuMemcpyHtoDAsync, "cuMemcpyHtoDAsync_v2");
  optional(d->cuMemcpyDtoHAsync, "cuMemcpyDtoHAsync_v2");
  optional(d->cuMemsetD8Async, "cuMemsetD8Async");
  optional(d->cuStreamBeginCapture, "cuStreamBeginCapture_v2");
  optional(d->cuStreamEndCapture, "cuStreamEndCapture");
  optional(d->cuGraphInstantiateWithFlags, "cuGraphInstantiateWithFlags");
  optional(d->cuGraphGetNodes, "cuGraphGetNodes");
  optional(d->cuGraphLaunch, "cuGraphLaunch");
  optional(d->cuGraphExecDestroy, "cuGraphExecDestroy");
  optional(d->cuGraphDestroy, "cuGraphDestroy");
  d->initResult = d->cuInit(0);
  const Driver *result = d.get();
  loaded.emplace(library, std::move(d));
  return result;
}

/// JIT logs are multi-line; errors are one line.
std::string oneLine(const char *log) {
  std::string s(log);
  while (!s.empty() &&
         (s.back() == '\n' || s.back() == '\r' || s.back() == ' ' || s.back() == '\0'))
    s.pop_back();
  std::string out;
  for (char c : s) {
    if (c == '\n')
      out += "; ";
    else if (c != '\r')
      out += c;
  }
  return out;
}
} // namespace

//===----------------------------------------------------------------------===//
// CudaDevice
//===----------------------------------------------------------------------===//

Result<std::shared_ptr<CudaDevice>> CudaDevice::get() {
  std::lock_guard<std::mutex> lock(driverMutex());
  const char *lib = std::getenv("UOP_LIBCUDA");
  std::string library = lib && *lib ? lib : "libcuda.so.1";
  Result<const Driver *> loaded = loadDriver(library);
  if (!loaded)
    return Error{loaded.error()};
  const Driver &d = **loaded;
  if (d.initResult != CUDA_SUCCESS)
    return noDevice(d.error("cuInit", d.initResult));

  int ordinal = 0;
  if (const char *env = std::getenv("UOP_CUDA_DEVICE"); env && *env) {
    char *end = nullptr;
    long v = std::strtol(env, &end, 10);
    if (*end || v < 0 || v > std::numeric_limits<int>::max())
      return noDevice(std::string("UOP_CUDA_DEVICE='") + env + "' is not a device number");
    ordinal = static_cast<int>(v);
  }
  int count = 0;
  if (CUresult rc = d.cuDeviceGetCount(&count); rc != CUDA_SUCCESS)
    return noDevice(d.error("cuDeviceGetCount", rc));
  if (count == 0)
    return noDevice("the driver sees no device");
  if (ordinal >= count)
    return noDevice("UOP_CUDA_DEVICE=" + std::to_string(ordinal) + ", but the driver sees " +
                    std::to_string(count) + " device(s) (0 to " + std::to_string(count - 1) + ")");

  static std::map<std::pair<const Driver *, int>, std::weak_ptr<CudaDevice>> devices;
  if (auto it = devices.find({&d, ordinal}); it != devices.end())
    if (std::shared_ptr<CudaDevice> alive = it->second.lock())
      return alive;

  CUdevice dev = 0;
  if (CUresult rc = d.cuDeviceGet(&dev, ordinal); rc != CUDA_SUCCESS)
    return noDevice(d.error("cuDeviceGet", rc));
  CUcontext ctx = nullptr;
  if (CUresult rc = d.cuDevicePrimaryCtxRetain(&ctx, dev); rc != CUDA_SUCCESS)
    return noDevice(d.error("cuDevicePrimaryCtxRetain", rc));
  std::shared_ptr<CudaDevice> device(new CudaDevice(&d, dev, ctx));
  char name[256] = {0};
  if (d.cuDeviceGetName(name, sizeof(name) - 1, dev) == CUDA_SUCCESS)
    device->deviceName = name;
  d.cuDeviceGetAttribute(&device->major, CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR, dev);
  d.cuDeviceGetAttribute(&device->minor, CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MINOR, dev);
  d.cuDriverGetVersion(&device->version);
  if (Result<bool> cur = device->makeCurrent(); !cur)
    return Error{cur.error()};
  devices[{&d, ordinal}] = device;
  return device;
}

CudaDevice::~CudaDevice() {
  if (ctx)
    drv->cuDevicePrimaryCtxRelease(dev);
}

std::string CudaDevice::chip() const {
  return "sm_" + std::to_string(major) + std::to_string(minor);
}

Result<bool> CudaDevice::makeCurrent() const {
  if (CUresult rc = drv->cuCtxSetCurrent(ctx); rc != CUDA_SUCCESS)
    return Error{drv->error("cuCtxSetCurrent", rc)};
  return true;
}

Result<bool> CudaDevice::synchronize() const {
  if (Result<bool> cur = makeCurrent(); !cur)
    return cur;
  if (CUresult rc = drv->cuCtxSynchronize(); rc != CUDA_SUCCESS)
    return Error{drv->error("cuCtxSynchronize", rc)};
  return true;
}

//===----------------------------------------------------------------------===//
// DeviceBuffer
//===----------------------------------------------------------------------===//

Result<DeviceBuffer> DeviceBuffer::allocate(std::shared_ptr<CudaDevice> device, size_t bytes) {
  if (Result<bool> cur = device->makeCurrent(); !cur)
    return Error{cur.error()};
  CUdeviceptr p = 0;
  size_t n = std::max<size_t>(bytes, 1);
  // Device memory draws from the one memory budget too (Memory.h).
  if (Result<bool> r = reserveMemory(n, "a CUDA device buffer"); !r)
    return Error{r.error()};
  if (CUresult rc = device->driver().cuMemAlloc(&p, n); rc != CUDA_SUCCESS) {
    releaseMemory(n);
    return Error{device->driver().error("cuMemAlloc", rc) + " allocating " + std::to_string(n) +
                 " bytes"};
  }
  DeviceBuffer b;
  b.device = std::move(device);
  b.addr = p;
  b.bytes = bytes;
  return b;
}

DeviceBuffer::DeviceBuffer(DeviceBuffer &&other) noexcept
    : device(std::move(other.device)), addr(other.addr), bytes(other.bytes) {
  other.addr = 0;
  other.bytes = 0;
}

DeviceBuffer &DeviceBuffer::operator=(DeviceBuffer &&other) noexcept {
  if (this != &other) {
    DeviceBuffer old(std::move(*this));
    device = std::move(other.device);
    addr = other.addr;
    bytes = other.bytes;
    other.addr = 0;
    other.bytes = 0;
  }
  return *this;
}

DeviceBuffer::~DeviceBuffer() {
  if (!addr)
    return;
  if (device && device->makeCurrent())
    device->driver().cuMemFree(addr);
  releaseMemory(std::max<size_t>(bytes, 1));
}

Result<bool> DeviceBuffer::copyFromHost(const void *src, size_t n) {
  if (n > bytes)
    return Error{"copy of " + std::to_string(n) + " bytes into a device buffer of " +
                 std::to_string(bytes)};
  if (n == 0)
    return true;
  if (Result<bool> cur = device->makeCurrent(); !cur)
    return cur;
  if (CUresult rc = device->driver().cuMemcpyHtoD(addr, src, n); rc != CUDA_SUCCESS)
    return Error{device->driver().error("cuMemcpyHtoD", rc)};
  return true;
}

Result<bool> DeviceBuffer::copyToHost(void *dst, size_t n) const {
  if (n > bytes)
    return Error{"copy of " + std::to_string(n) + " bytes out of a device buffer of " +
                 std::to_string(bytes)};
  if (n == 0)
    return true;
  if (Result<bool> cur = device->makeCurrent(); !cur)
    return cur;
  if (CUresult rc = device->driver().cuMemcpyDtoH(dst, addr, n); rc != CUDA_SUCCESS)
    return Error{device->driver().error("cuMemcpyDtoH", rc)};
  return true;
}

Result<bool> DeviceBuffer::fill(unsigned char value) {
  if (!addr)
    return true;
  if (Result<bool> cur = device->makeCurrent(); !cur)
    return cur;
  if (CUresult rc = device->driver().cuMemsetD8(addr, value, std::max<size_t>(bytes, 1));
      rc != CUDA_SUCCESS)
    return Error{device->driver().error("cuMemsetD8", rc)};
  return true;
}

//===----------------------------------------------------------------------===//
// CudaModule, CudaFunction
//===----------------------------------------------------------------------===//

Result<std::unique_ptr<CudaModule>> CudaModule::load(std::shared_ptr<CudaDevice> device,
                                                     const std::string &image, bool text) {
  if (image.empty())
    return Error{std::string("cuModuleLoadDataEx: an empty ") + (text ? "PTX text" : "cubin")};
  if (Result<bool> cur = device->makeCurrent(); !cur)
    return Error{cur.error()};
  const Driver &d = device->driver();
  constexpr size_t kLog = 16384;
  std::vector<char> errorLog(kLog, 0), infoLog(kLog, 0);
  CUjit_option opts[] = {CU_JIT_ERROR_LOG_BUFFER, CU_JIT_ERROR_LOG_BUFFER_SIZE_BYTES,
                         CU_JIT_INFO_LOG_BUFFER, CU_JIT_INFO_LOG_BUFFER_SIZE_BYTES};
  void *values[] = {errorLog.data(), reinterpret_cast<void *>(uintptr_t(kLog - 1)), infoLog.data(),
                    reinterpret_cast<void *>(uintptr_t(kLog - 1))};
  CUmodule mod = nullptr;
  // PTX must be NUL-terminated: c_str() is.
  CUresult rc = d.cuModuleLoadDataEx(&mod, image.c_str(), 4, opts, values);
  if (rc != CUDA_SUCCESS) {
    std::string msg = d.error("cuModuleLoadDataEx", rc);
    std::string log = oneLine(errorLog.data());
    if (log.empty())
      log = oneLine(infoLog.data());
    if (!log.empty())
      msg += ": " + log;
    return Error{msg};
  }
  return std::unique_ptr<CudaModule>(new CudaModule(std::move(device), mod));
}

Result<std::unique_ptr<CudaModule>> CudaModule::loadPtx(std::shared_ptr<CudaDevice> device,
                                                        const std::string &ptx) {
  return load(std::move(device), ptx, true);
}

Result<std::unique_ptr<CudaModule>> CudaModule::loadCubin(std::shared_ptr<CudaDevice> device,
                                                          const std::string &image) {
  return load(std::move(device), image, false);
}

CudaModule::~CudaModule() {
  if (mod && device->makeCurrent())
    device->driver().cuModuleUnload(mod);
}

Result<CudaFunction> CudaModule::function(const std::string &name) const {
  if (Result<bool> cur = device->makeCurrent(); !cur)
    return Error{cur.error()};
  CUfunction fn = nullptr;
  if (CUresult rc = device->driver().cuModuleGetFunction(&fn, mod, name.c_str());
      rc != CUDA_SUCCESS)
    return Error{"the CUDA module has no kernel '" + name + "' (" +
                 device->driver().error("cuModuleGetFunction", rc) + ")"};
  CudaFunction f;
  f.device = device.get();
  f.fn = fn;
  f.fname = name;
  return f;
}

Result<bool> CudaFunction::launch(const int64_t grid[3], const int64_t block[3],
                                  const std::vector<DevicePtr> &params, unsigned sharedBytes,
                                  const CudaStream *stream) const {
  auto dims = [](const int64_t d[3]) {
    return "(" + std::to_string(d[0]) + ", " + std::to_string(d[1]) + ", " + std::to_string(d[2]) +
           ")";
  };
  for (int i = 0; i < 3; ++i)
    if (grid[i] < 1 || block[i] < 1 || grid[i] > std::numeric_limits<unsigned>::max() ||
        block[i] > std::numeric_limits<unsigned>::max())
      return Error{"cannot launch " + fname + " with grid " + dims(grid) + " and block " +
                   dims(block) + ": dimensions must be 1 to 2^32-1"};
  if (Result<bool> cur = device->makeCurrent(); !cur)
    return cur;
  // More dynamic shared memory than a block gets by default (48 KiB): the
  // function's limit is raised first, once (up to the device's opt-in
  // limit: 227 KiB on sm_90; past it the driver refuses).
  if (sharedBytes > kSharedWithoutOptin && sharedBytes > sharedOptin) {
    const Driver &d = device->driver();
    if (!d.cuFuncSetAttribute)
      return Error{"cannot launch " + fname + " with " + std::to_string(sharedBytes) +
                   " bytes of shared memory: the driver has no cuFuncSetAttribute"};
    if (CUresult rc =
            d.cuFuncSetAttribute(fn, CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES, int(sharedBytes));
        rc != CUDA_SUCCESS)
      return Error{d.error("cuFuncSetAttribute", rc) + ": " + fname + " asks for " +
                   std::to_string(sharedBytes) + " bytes of dynamic shared memory a block"};
    sharedOptin = sharedBytes;
  }
  std::vector<CUdeviceptr> values(params.begin(), params.end());
  std::vector<void *> args;
  args.reserve(values.size());
  for (CUdeviceptr &v : values)
    args.push_back(&v);
  CUresult rc = device->driver().cuLaunchKernel(
      fn, unsigned(grid[0]), unsigned(grid[1]), unsigned(grid[2]), unsigned(block[0]),
      unsigned(block[1]), unsigned(block[2]), sharedBytes, stream ? stream->handle() : nullptr,
      args.empty() ? nullptr : args.data(), nullptr);
  if (rc != CUDA_SUCCESS)
    return Error{device->driver().error("cuLaunchKernel", rc) + " launching " + fname +
                 " with grid " + dims(grid) + " and block " + dims(block)};
  return true;
}

//===----------------------------------------------------------------------===//
// CudaEvent
//===----------------------------------------------------------------------===//

Result<CudaEvent> CudaEvent::create(std::shared_ptr<CudaDevice> device) {
  if (Result<bool> cur = device->makeCurrent(); !cur)
    return Error{cur.error()};
  CUevent ev = nullptr;
  if (CUresult rc = device->driver().cuEventCreate(&ev, CU_EVENT_DEFAULT); rc != CUDA_SUCCESS)
    return Error{device->driver().error("cuEventCreate", rc)};
  CudaEvent e;
  e.device = std::move(device);
  e.ev = ev;
  return e;
}

CudaEvent::CudaEvent(CudaEvent &&other) noexcept : device(std::move(other.device)), ev(other.ev) {
  other.ev = nullptr;
}

CudaEvent &CudaEvent::operator=(CudaEvent &&other) noexcept {
  if (this != &other) {
    CudaEvent old(std::move(*this));
    device = std::move(other.device);
    ev = other.ev;
    other.ev = nullptr;
  }
  return *this;
}

CudaEvent::~CudaEvent() {
  if (ev && device && device->makeCurrent())
    device->driver().cuEventDestroy(ev);
}

Result<bool> CudaEvent::record() {
  if (Result<bool> cur = device->makeCurrent(); !cur)
    return cur;
  if (CUresult rc = device->driver().cuEventRecord(ev, nullptr); rc != CUDA_SUCCESS)
    return Error{device->driver().error("cuEventRecord", rc)};
  return true;
}

Result<bool> CudaEvent::synchronize() const {
  if (Result<bool> cur = device->makeCurrent(); !cur)
    return cur;
  if (CUresult rc = device->driver().cuEventSynchronize(ev); rc != CUDA_SUCCESS)
    return Error{device->driver().error("cuEventSynchronize", rc)};
  return true;
}

Result<double> CudaEvent::secondsSince(const CudaEvent &start) const {
  if (Result<bool> cur = device->makeCurrent(); !cur)
    return Error{cur.error()};
  float ms = 0;
  if (CUresult rc = device->driver().cuEventElapsedTime(&ms, start.ev, ev); rc != CUDA_SUCCESS)
    return Error{device->driver().error("cuEventElapsedTime", rc)};
  return ms * 1e-3;
}

//===----------------------------------------------------------------------===//
// CudaStream, CudaGraph
//===----------------------------------------------------------------------===//

namespace {
/// The error of a driver without the stream and graph entry points.
Error noStreams(const Driver &d) {
  return Error{d.library + " has no " + d.missingStreams +
               " (CUDA streams and graphs need a driver of CUDA 11.4 or later)"};
}
} // namespace

Result<CudaStream> CudaStream::create(std::shared_ptr<CudaDevice> device) {
  const Driver &d = device->driver();
  if (!d.missingStreams.empty())
    return noStreams(d);
  if (Result<bool> cur = device->makeCurrent(); !cur)
    return Error{cur.error()};
  CUstream st = nullptr;
  if (CUresult rc = d.cuStreamCreate(&st, CU_STREAM_NON_BLOCKING); rc != CUDA_SUCCESS)
    return Error{d.error("cuStreamCreate", rc)};
  CudaStream s;
  s.dev = std::move(device);
  s.stream = st;
  return s;
}

CudaStream::CudaStream(CudaStream &&other) noexcept
    : dev(std::move(other.dev)), stream(other.stream) {
  other.stream = nullptr;
}

CudaStream &CudaStream::operator=(CudaStream &&other) noexcept {
  if (this != &other) {
    CudaStream old(std::move(*this));
    dev = std::move(other.dev);
    stream = other.stream;
    other.stream = nullptr;
  }
  return *this;
}

CudaStream::~CudaStream() {
  if (stream && dev && dev->makeCurrent())
    dev->driver().cuStreamDestroy(stream);
}

Result<bool> CudaStream::synchronize() const {
  if (Result<bool> cur = dev->makeCurrent(); !cur)
    return cur;
  if (CUresult rc = dev->driver().cuStreamSynchronize(stream); rc != CUDA_SUCCESS)
    return Error{dev->driver().error("cuStreamSynchronize", rc)};
  return true;
}

Result<bool> CudaStream::copy(DevicePtr dst, DevicePtr src, size_t n) const {
  if (n == 0)
    return true;
  if (Result<bool> cur = dev->makeCurrent(); !cur)
    return cur;
  if (CUresult rc = dev->driver().cuMemcpyDtoDAsync(dst, src, n, stream); rc != CUDA_SUCCESS)
    return Error{dev->driver().error("cuMemcpyDtoDAsync", rc)};
  return true;
}

Result<bool> CudaStream::copyIn(DevicePtr dst, const void *src, size_t n) const {
  if (n == 0)
    return true;
  if (Result<bool> cur = dev->makeCurrent(); !cur)
    return cur;
  if (CUresult rc = dev->driver().cuMemcpyHtoDAsync(dst, src, n, stream); rc != CUDA_SUCCESS)
    return Error{dev->driver().error("cuMemcpyHtoDAsync", rc)};
  return true;
}

Result<bool> CudaStream::copyOut(void *dst, DevicePtr src, size_t n) const {
  if (n == 0)
    return true;
  if (Result<bool> cur = dev->makeCurrent(); !cur)
    return cur;
  if (CUresult rc = dev->driver().cuMemcpyDtoHAsync(dst, src, n, stream); rc != CUDA_SUCCESS)
    return Error{dev->driver().error("cuMemcpyDtoHAsync", rc)};
  return true;
}

Result<bool> CudaStream::fill(DevicePtr dst, unsigned char value, size_t n) const {
  if (n == 0)
    return true;
  if (Result<bool> cur = dev->makeCurrent(); !cur)
    return cur;
  if (CUresult rc = dev->driver().cuMemsetD8Async(dst, value, n, stream); rc != CUDA_SUCCESS)
    return Error{dev->driver().error("cuMemsetD8Async", rc)};
  return true;
}

Result<CudaGraph> CudaGraph::capture(CudaStream &stream,
                                     const std::function<Result<bool>()> &record) {
  const std::shared_ptr<CudaDevice> &dev = stream.device();
  const Driver &d = dev->driver();
  if (!d.missingStreams.empty())
    return noStreams(d);
  if (Result<bool> cur = dev->makeCurrent(); !cur)
    return Error{cur.error()};
  // Thread-local: another thread's unrelated driver calls do not break it.
  if (CUresult rc = d.cuStreamBeginCapture(stream.handle(), CU_STREAM_CAPTURE_MODE_THREAD_LOCAL);
      rc != CUDA_SUCCESS)
    return Error{d.error("cuStreamBeginCapture", rc)};
  Result<bool> recorded = record();
  CUgraph g = nullptr;
  CUresult ended = d.cuStreamEndCapture(stream.handle(), &g);
  if (!recorded) {
    if (g)
      d.cuGraphDestroy(g);
    return Error{recorded.error()};
  }
  if (ended != CUDA_SUCCESS)
    return Error{d.error("cuStreamEndCapture", ended)};
  CudaGraph graph;
  graph.dev = dev;
  graph.graph = g;
  size_t n = 0;
  if (d.cuGraphGetNodes(g, nullptr, &n) == CUDA_SUCCESS)
    graph.numNodes = n;
  CUgraphExec exec = nullptr;
  if (CUresult rc = d.cuGraphInstantiateWithFlags(&exec, g, 0); rc != CUDA_SUCCESS)
    return Error{d.error("cuGraphInstantiateWithFlags", rc)};
  graph.exec = exec;
  return graph;
}

CudaGraph::CudaGraph(CudaGraph &&other) noexcept
    : dev(std::move(other.dev)), graph(other.graph), exec(other.exec), numNodes(other.numNodes) {
  other.graph = other.exec = nullptr;
}

CudaGraph &CudaGraph::operator=(CudaGraph &&other) noexcept {
  if (this != &other) {
    CudaGraph old(std::move(*this));
    dev = std::move(other.dev);
    graph = other.graph;
    exec = other.exec;
    numNodes = other.numNodes;
    other.graph = other.exec = nullptr;
  }
  return *this;
}

CudaGraph::~CudaGraph() {
  if (!dev || !dev->makeCurrent())
    return;
  if (exec)
    dev->driver().cuGraphExecDestroy(exec);
  if (graph)
    dev->driver().cuGraphDestroy(graph);
}

Result<bool> CudaGraph::launch(const CudaStream &stream) const {
  if (Result<bool> cur = dev->makeCurrent(); !cur)
    return cur;
  if (CUresult rc = dev->driver().cuGraphLaunch(exec, stream.handle()); rc != CUDA_SUCCESS)
    return Error{dev->driver().error("cuGraphLaunch", rc)};
  return true;
}

//===----------------------------------------------------------------------===//
// CudaProgram
//===----------------------------------------------------------------------===//

Result<std::unique_ptr<CudaProgram>> CudaProgram::load(const HostPlan &plan, const std::string &ptx,
                                                       const std::string &cubin) {
  if (ptx.empty() && cubin.empty())
    return Error{"the CUDA program has neither PTX nor a cubin"};
  Result<std::shared_ptr<CudaDevice>> dev = CudaDevice::get();
  if (!dev)
    return Error{dev.error()};
  std::unique_ptr<CudaProgram> p(new CudaProgram());
  p->plan = plan;
  p->dev = *dev;
  Result<std::unique_ptr<CudaModule>> mod = Error{""};
  if (!cubin.empty()) {
    mod = CudaModule::loadCubin(p->dev, cubin);
    // A cubin for another GPU: the PTX JIT-compiles for this one.
    if (!mod && !ptx.empty())
      mod = CudaModule::loadPtx(p->dev, ptx);
  } else {
    mod = CudaModule::loadPtx(p->dev, ptx);
  }
  if (!mod)
    return Error{mod.error()};
  p->module = mod.take();
  for (const PlanKernel &k : plan.kernels) {
    Result<CudaFunction> f = p->module->function(k.name);
    if (!f)
      return Error{f.error()};
    p->functions.push_back(*f);
  }
  for (const PlanLaunch &l : plan.launches) {
    if (l.kernel >= p->functions.size())
      return Error{"a launch of kernel " + std::to_string(l.kernel) + ", but the plan has " +
                   std::to_string(p->functions.size())};
    for (unsigned a : l.args)
      if (a >= plan.args.size())
        return Error{"a launch of " + plan.kernels[l.kernel].name + " binds argument " +
                     std::to_string(a) + ", but the plan has " + std::to_string(plan.args.size())};
  }
  p->buffers.resize(plan.args.size());
  for (size_t i = 0; i < plan.args.size(); ++i) {
    const PlanArg &a = plan.args[i];
    if (!a.owned())
      continue;
    std::optional<int64_t> n = checkedNumel({a.numel}, dtypeSize(a.dtype));
    if (!n)
      return Error{"plan argument " + std::to_string(i) + " is too large"};
    Result<DeviceBuffer> b = DeviceBuffer::allocate(p->dev, static_cast<size_t>(*n) * dtypeSize(a.dtype));
    if (!b)
      return Error{"plan argument " + std::to_string(i) + ": " + b.error()};
    // Temporaries start zeroed, as the CPU executable's do.
    if (Result<bool> z = b->fill(0); !z)
      return Error{z.error()};
    p->buffers[i] = b.take();
  }
  return p;
}

Result<bool> CudaProgram::stage() {
  if (staged)
    return true;
  for (size_t i = 0; i < plan.args.size(); ++i) {
    const PlanArg &a = plan.args[i];
    if (a.owned())
      continue;
    std::optional<int64_t> n = checkedNumel({a.numel}, dtypeSize(a.dtype));
    if (!n)
      return Error{"plan argument " + std::to_string(i) + " is too large"};
    Result<DeviceBuffer> b = DeviceBuffer::allocate(dev, static_cast<size_t>(*n) * dtypeSize(a.dtype));
    if (!b)
      return Error{"plan argument " + std::to_string(i) + ": " + b.error()};
    buffers[i] = b.take();
  }
  staged = true;
  return true;
}

std::vector<DevicePtr> CudaProgram::stagedArgs() const {
  std::vector<DevicePtr> args;
  for (size_t i = 0; i < plan.args.size(); ++i)
    if (!plan.args[i].owned())
      args.push_back(buffers[i].ptr());
  return args;
}

Result<bool> CudaProgram::copyIn(const std::vector<void *> &hostArgs) {
  if (Result<bool> ok = stage(); !ok)
    return ok;
  size_t next = 0;
  for (size_t i = 0; i < plan.args.size(); ++i) {
    if (plan.args[i].owned())
      continue;
    if (next >= hostArgs.size())
      return Error{"the program takes more buffers than the " + std::to_string(hostArgs.size()) +
                   " given"};
    void *src = hostArgs[next++];
    if (!src)
      return Error{"no host buffer for plan argument " + std::to_string(i)};
    if (Result<bool> ok = buffers[i].copyFromHost(src, buffers[i].size()); !ok)
      return ok;
  }
  return true;
}

Result<bool> CudaProgram::copyOut(const std::vector<void *> &hostArgs) {
  size_t next = 0;
  for (size_t i = 0; i < plan.args.size(); ++i) {
    const PlanArg &a = plan.args[i];
    if (a.owned())
      continue;
    void *dst = hostArgs[next++];
    bool writes = plan.form == HostPlan::Shaped ? a.kind == PlanArg::Output : a.written;
    if (!writes)
      continue;
    if (Result<bool> ok = buffers[i].copyToHost(dst, buffers[i].size()); !ok)
      return ok;
  }
  return true;
}

bool CudaProgram::hasChecks() const {
  return std::any_of(plan.args.begin(), plan.args.end(),
                     [](const PlanArg &a) { return a.kind == PlanArg::Check; });
}

Result<bool> CudaProgram::clearChecks(const CudaStream *stream) {
  for (size_t i = 0; i < plan.args.size(); ++i) {
    if (plan.args[i].kind != PlanArg::Check)
      continue;
    Result<bool> ok = stream ? stream->fill(buffers[i].ptr(), 0, buffers[i].size())
                             : buffers[i].fill(0);
    if (!ok)
      return ok;
  }
  return true;
}

Result<bool> CudaProgram::readChecks() {
  if (!hasChecks())
    return true;
  if (Result<bool> ok = dev->synchronize(); !ok)
    return ok;
  std::vector<int32_t> words(plan.args.size() * kCheckRecordSize, 0);
  for (size_t i = 0; i < plan.args.size(); ++i)
    if (plan.args[i].kind == PlanArg::Check)
      if (Result<bool> ok = buffers[i].copyToHost(&words[i * kCheckRecordSize],
                                                  kCheckRecordSize * sizeof(int32_t));
          !ok)
        return ok;
  std::string failure = plan.checkFailure([&](size_t i) { return &words[i * kCheckRecordSize]; });
  if (!failure.empty())
    return Error{failure};
  return true;
}

/// The driver's CUtensorMapDataType of `dtype`, or -1.
static int tensorMapDataType(DType dtype) {
  switch (dtype) {
  case DType::F16:
    return 6; // CU_TENSOR_MAP_DATA_TYPE_FLOAT16
  case DType::F32:
    return 7; // CU_TENSOR_MAP_DATA_TYPE_FLOAT32
  default:
    return -1;
  }
}

Result<DevicePtr> CudaProgram::tensorMap(size_t kernel, size_t index, DevicePtr buffer) {
  const PlanTensorMap &t = plan.kernels[kernel].tensorMaps[index];
  auto key = std::make_tuple(kernel, index, buffer);
  if (auto it = tensorMaps.find(key); it != tensorMaps.end())
    return it->second.ptr();
  const Driver &d = dev->driver();
  const std::string what = "the tensor map of " + plan.kernels[kernel].name + "'s parameter " +
                           std::to_string(t.param);
  if (!d.cuTensorMapEncodeTiled)
    return Error{"cannot encode " + what + ": the driver has no cuTensorMapEncodeTiled (CUDA 12+)"};
  int type = tensorMapDataType(t.dtype);
  if (type < 0)
    return Error{"cannot encode " + what + ": no tensor-map type for " + dtypeName(t.dtype)};
  alignas(64) unsigned char map[128] = {};
  uint64_t dims[2] = {uint64_t(t.dims[0]), uint64_t(t.dims[1])};
  uint64_t strides[1] = {uint64_t(t.stride)};
  uint32_t box[2] = {uint32_t(t.box[0]), uint32_t(t.box[1])};
  uint32_t elementStrides[2] = {1, 1};
  int swizzle = t.swizzle == 128 ? 3 : t.swizzle == 64 ? 2 : t.swizzle == 32 ? 1 : 0;
  void *address = reinterpret_cast<void *>(buffer + uint64_t(t.offset) * dtypeSize(t.dtype));
  if (Result<bool> ok = dev->makeCurrent(); !ok)
    return Error{ok.error()};
  // No interleave, L2 promotion of 256 bytes, zeros out of bounds.
  if (CUresult rc = d.cuTensorMapEncodeTiled(map, type, 2, address, dims, strides, box,
                                             elementStrides, 0, swizzle, 3, 0);
      rc != CUDA_SUCCESS)
    return Error{d.error("cuTensorMapEncodeTiled", rc) + " (" + what + ")"};
  Result<DeviceBuffer> b = DeviceBuffer::allocate(dev, sizeof(map));
  if (!b)
    return Error{b.error()};
  if (Result<bool> ok = b->copyFromHost(map, sizeof(map)); !ok)
    return Error{ok.error()};
  DevicePtr ptr = b->ptr();
  tensorMaps.emplace(key, b.take());
  return ptr;
}

Result<bool> CudaProgram::bindArgs(const std::vector<DevicePtr> &args) {
  if (args == lastArgs && params.size() == plan.launches.size())
    return true;
  // The parameters of every launch: the caller's buffers in the places of
  // the arguments it passes, the program's own in the rest.
  std::vector<DevicePtr> all(plan.args.size(), 0);
  size_t next = 0;
  for (size_t i = 0; i < plan.args.size(); ++i) {
    if (plan.args[i].owned()) {
      all[i] = buffers[i].ptr();
      continue;
    }
    if (next >= args.size())
      return Error{"the program takes more buffers than the " + std::to_string(args.size()) +
                   " given"};
    all[i] = args[next++];
  }
  if (next != args.size())
    return Error{"the program takes " + std::to_string(next) + " buffers, not " +
                 std::to_string(args.size())};
  params.clear();
  for (const PlanLaunch &l : plan.launches) {
    std::vector<DevicePtr> ptrs;
    for (unsigned a : l.args)
      ptrs.push_back(all[a]);
    // The kernel's tensor maps, after its buffers: encoded for the buffers
    // bound here (once per buffer: a later binding of the same buffer
    // reuses them, so graphs captured on either binding stay valid).
    const std::vector<PlanTensorMap> &maps = plan.kernels[l.kernel].tensorMaps;
    std::vector<DevicePtr> mapPtrs;
    for (size_t m = 0; m < maps.size(); ++m) {
      if (maps[m].param >= l.args.size())
        return Error{"a tensor map of " + plan.kernels[l.kernel].name + " describes parameter " +
                     std::to_string(maps[m].param) + ", but its launch has " +
                     std::to_string(l.args.size())};
      Result<DevicePtr> map = tensorMap(l.kernel, m, ptrs[maps[m].param]);
      if (!map)
        return Error{map.error()};
      mapPtrs.push_back(*map);
    }
    ptrs.insert(ptrs.end(), mapPtrs.begin(), mapPtrs.end());
    params.push_back(std::move(ptrs));
  }
  lastArgs = args;
  return true;
}

Result<bool> CudaProgram::launch(const std::vector<DevicePtr> &args, const CudaStream *stream,
                                 bool reset) {
  if (Result<bool> ok = bindArgs(args); !ok)
    return ok;
  if (reset)
    if (Result<bool> ok = clearChecks(stream); !ok)
      return ok;
  for (size_t i = 0; i < plan.launches.size(); ++i) {
    const PlanLaunch &l = plan.launches[i];
    if (Result<bool> ok =
            functions[l.kernel].launch(l.grid, l.block, params[i], unsigned(l.shared), stream);
        !ok)
      return ok;
  }
  return true;
}

Result<bool> CudaProgram::launchOne(size_t i, const std::vector<DevicePtr> &args,
                                    const CudaStream *stream) {
  if (i >= plan.launches.size())
    return Error{"the plan has no launch " + std::to_string(i)};
  if (Result<bool> ok = bindArgs(args); !ok)
    return ok;
  const PlanLaunch &l = plan.launches[i];
  return functions[l.kernel].launch(l.grid, l.block, params[i], unsigned(l.shared), stream);
}

Result<bool> CudaProgram::run(const std::vector<void *> &hostArgs, int repeat) {
  if (Result<bool> ok = copyIn(hostArgs); !ok)
    return ok;
  std::vector<DevicePtr> args = stagedArgs();
  for (int r = 0; r < repeat; ++r)
    if (Result<bool> ok = launch(args, nullptr, /*resetChecks=*/r == 0); !ok)
      return ok;
  if (Result<bool> ok = dev->synchronize(); !ok)
    return ok;
  // The device's check records: a failed check is the run's error.
  if (Result<bool> ok = readChecks(); !ok)
    return ok;
  return copyOut(hostArgs);
}

Result<std::vector<double>> CudaProgram::bench(const std::vector<void *> &hostArgs, int runs) {
  std::vector<double> times;
  if (runs <= 0)
    return times;
  if (Result<bool> ok = copyIn(hostArgs); !ok)
    return Error{ok.error()};
  std::vector<DevicePtr> args = stagedArgs();
  // Warm-up: module load is lazy, and the first launch pays for it.
  if (Result<bool> ok = launch(args); !ok)
    return Error{ok.error()};
  if (Result<bool> ok = dev->synchronize(); !ok)
    return Error{ok.error()};
  // Runs go back to back, each between two events, in chunks so that a long
  // benchmark needs few events.
  constexpr int kChunk = 256;
  std::vector<CudaEvent> events;
  for (int i = 0; i <= std::min(runs, kChunk); ++i) {
    Result<CudaEvent> e = CudaEvent::create(dev);
    if (!e)
      return Error{e.error()};
    events.push_back(e.take());
  }
  times.reserve(runs);
  for (int done = 0; done < runs;) {
    int n = std::min(runs - done, kChunk);
    if (Result<bool> ok = events[0].record(); !ok)
      return Error{ok.error()};
    for (int i = 0; i < n; ++i) {
      if (Result<bool> ok = launch(args, nullptr, /*resetChecks=*/false); !ok)
        return Error{ok.error()};
      if (Result<bool> ok = events[i + 1].record(); !ok)
        return Error{ok.error()};
    }
    if (Result<bool> ok = events[n].synchronize(); !ok)
      return Error{ok.error()};
    for (int i = 0; i < n; ++i) {
      Result<double> t = events[i + 1].secondsSince(events[i]);
      if (!t)
        return Error{t.error()};
      times.push_back(*t);
    }
    done += n;
  }
  if (Result<bool> ok = dev->synchronize(); !ok)
    return Error{ok.error()};
  if (Result<bool> ok = readChecks(); !ok)
    return Error{ok.error()};
  if (Result<bool> ok = copyOut(hostArgs); !ok)
    return Error{ok.error()};
  std::sort(times.begin(), times.end());
  return times;
}

//===----------------------------------------------------------------------===//
// Device::cuda
//===----------------------------------------------------------------------===//

namespace {
/// The CUDA device's memory. Copies are synchronous driver calls on the
/// default stream, so they follow the launches issued before them.
class CudaMemory final : public Device {
public:
  explicit CudaMemory(std::shared_ptr<CudaDevice> dev) : dev(std::move(dev)) {}
  Backend backend() const override { return Backend::CUDA; }
  std::string name() const override { return dev->name() + " (" + dev->chip() + ")"; }
  Result<bool> synchronize() override { return dev->synchronize(); }

protected:
  Result<DevicePtr> alloc(size_t bytes) override {
    if (Result<bool> cur = dev->makeCurrent(); !cur)
      return Error{cur.error()};
    CUdeviceptr p = 0;
    if (CUresult rc = dev->driver().cuMemAlloc(&p, bytes); rc != CUDA_SUCCESS)
      return Error{dev->driver().error("cuMemAlloc", rc) + " allocating " + std::to_string(bytes) +
                   " bytes"};
    return static_cast<DevicePtr>(p);
  }
  void release(DevicePtr p) override {
    if (dev->makeCurrent())
      dev->driver().cuMemFree(p);
  }
  Result<bool> doCopyIn(DevicePtr dst, const void *src, size_t n) override {
    if (Result<bool> cur = dev->makeCurrent(); !cur)
      return cur;
    if (CUresult rc = dev->driver().cuMemcpyHtoD(dst, src, n); rc != CUDA_SUCCESS)
      return Error{dev->driver().error("cuMemcpyHtoD", rc)};
    return true;
  }
  Result<bool> doCopyOut(void *dst, DevicePtr src, size_t n) override {
    if (Result<bool> cur = dev->makeCurrent(); !cur)
      return cur;
    if (CUresult rc = dev->driver().cuMemcpyDtoH(dst, src, n); rc != CUDA_SUCCESS)
      return Error{dev->driver().error("cuMemcpyDtoH", rc)};
    return true;
  }
  Result<bool> doCopy(DevicePtr dst, DevicePtr src, size_t n) override {
    const Driver &d = dev->driver();
    if (!d.cuMemcpyDtoD)
      return Error{d.library + " has no cuMemcpyDtoD_v2"};
    if (Result<bool> cur = dev->makeCurrent(); !cur)
      return cur;
    if (CUresult rc = d.cuMemcpyDtoD(dst, src, n); rc != CUDA_SUCCESS)
      return Error{d.error("cuMemcpyDtoD", rc)};
    return true;
  }

private:
  std::shared_ptr<CudaDevice> dev;
};
} // namespace

Result<std::shared_ptr<Device>> Device::cuda() {
  Result<std::shared_ptr<CudaDevice>> dev = CudaDevice::get();
  if (!dev)
    return Error{dev.error()};
  // One memory object per device object: its counts are the process's.
  static std::weak_ptr<Device> last;
  static const CudaDevice *lastDevice = nullptr;
  if (std::shared_ptr<Device> alive = last.lock(); alive && lastDevice == dev->get())
    return alive;
  std::shared_ptr<Device> mem = std::make_shared<CudaMemory>(*dev);
  last = mem;
  lastDevice = dev->get();
  return mem;
}
