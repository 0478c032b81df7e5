// A fake CUDA driver for testing the purego binding without a GPU: device
// memory is host memory, modules accept any PTX except one containing
// "INVALID", and the only kernel, "record", writes its launch configuration
// and second argument to the address in its first argument.
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

typedef int CUresult;
typedef unsigned long long CUdeviceptr;

CUresult cuInit(unsigned int flags) { return flags == 0 ? 0 : 1; }
CUresult cuDeviceGetCount(int *n) { *n = 1; return 0; }
CUresult cuDeviceGet(int *dev, int ordinal) { *dev = ordinal; return ordinal == 0 ? 0 : 101; }
CUresult cuDeviceGetName(char *name, int len, int dev) {
	strncpy(name, "Fake H200", len);
	return 0;
}
CUresult cuDeviceGetAttribute(int *v, int attr, int dev) {
	switch (attr) {
	case 75: *v = 9; return 0;   // compute capability major
	case 76: *v = 0; return 0;   // minor
	case 16: *v = 132; return 0; // SMs
	}
	return 1;
}
CUresult cuDeviceTotalMem_v2(size_t *bytes, int dev) { *bytes = (size_t)141 << 30; return 0; }
static int ctx_object;
CUresult cuDevicePrimaryCtxRetain(void **ctx, int dev) { *ctx = &ctx_object; return 0; }
CUresult cuCtxSetCurrent(void *ctx) { return ctx == &ctx_object ? 0 : 201; }
CUresult cuMemAlloc_v2(CUdeviceptr *p, size_t n) {
	if (n > ((size_t)1 << 40)) return 2; // CUDA_ERROR_OUT_OF_MEMORY
	*p = (CUdeviceptr)(uintptr_t)calloc(1, n);
	return 0;
}
CUresult cuMemFree_v2(CUdeviceptr p) { free((void *)(uintptr_t)p); return 0; }
CUresult cuMemcpyHtoD_v2(CUdeviceptr dst, const void *src, size_t n) { memcpy((void *)(uintptr_t)dst, src, n); return 0; }
CUresult cuMemcpyDtoH_v2(void *dst, CUdeviceptr src, size_t n) { memcpy(dst, (void *)(uintptr_t)src, n); return 0; }
CUresult cuMemcpyDtoDAsync_v2(CUdeviceptr dst, CUdeviceptr src, size_t n, void *s) {
	memcpy((void *)(uintptr_t)dst, (void *)(uintptr_t)src, n);
	return 0;
}
static int module_object, function_object;
CUresult cuModuleLoadDataEx(void **mod, const void *image, unsigned int n, int *opts, void **vals) {
	int bad = strstr((const char *)image, "INVALID") != NULL;
	for (unsigned int i = 0; i < n; i++) {
		float ms = 12.5f;
		switch (opts[i]) {
		case 2: memcpy(&vals[i], &ms, sizeof ms); break; // CU_JIT_WALL_TIME
		case 3: if (!bad) strcpy((char *)vals[i], "info: fake jit of record"); break;
		case 5: if (bad) strcpy((char *)vals[i], "ptxas fatal: INVALID instruction"); break;
		}
	}
	if (bad) return 218; // CUDA_ERROR_INVALID_PTX
	*mod = &module_object;
	return 0;
}
CUresult cuModuleUnload(void *mod) { return 0; }
CUresult cuModuleGetFunction(void **fn, void *mod, const char *name) {
	if (strcmp(name, "record") != 0) return 500; // CUDA_ERROR_NOT_FOUND
	*fn = &function_object;
	return 0;
}
CUresult cuLaunchKernel(void *f, unsigned gx, unsigned gy, unsigned gz, unsigned bx, unsigned by, unsigned bz,
			unsigned shmem, void *stream, void **params, void **extra) {
	if (f != &function_object || extra != NULL) return 400;
	uint64_t *out = (uint64_t *)(uintptr_t)(*(CUdeviceptr *)params[0]);
	out[0] = gx; out[1] = gy * 1000 + gz; out[2] = bx; out[3] = by * 1000 + bz; out[4] = shmem;
	out[5] = *(uint64_t *)params[1];
	return 0;
}
static int stream_object, event_object;
CUresult cuStreamCreate(void **s, unsigned flags) { *s = &stream_object; return 0; }
CUresult cuStreamSynchronize(void *s) { return s == &stream_object ? 0 : 400; }
CUresult cuEventCreate(void **e, unsigned flags) { *e = &event_object; return 0; }
CUresult cuEventRecord(void *e, void *s) { return 0; }
CUresult cuEventSynchronize(void *e) { return 0; }
CUresult cuEventElapsedTime(float *ms, void *a, void *b) { *ms = 1.5f; return 0; }
CUresult cuEventDestroy_v2(void *e) { return 0; }
CUresult cuGetErrorName(CUresult e, const char **s) {
	switch (e) {
	case 2: *s = "CUDA_ERROR_OUT_OF_MEMORY"; return 0;
	case 218: *s = "CUDA_ERROR_INVALID_PTX"; return 0;
	case 500: *s = "CUDA_ERROR_NOT_FOUND"; return 0;
	}
	*s = "CUDA_ERROR_UNKNOWN";
	return 0;
}
CUresult cuGetErrorString(CUresult e, const char **s) {
	*s = e == 2 ? "out of memory" : "fake error";
	return 0;
}
