/* dtype mapping for DLPack (dlpack_dtype.h). */
#include "interop/dlpack_dtype.h"

#include <stdio.h>

#include "common/error_internal.h"

DLDataType uf__dlpack_dtype(uf_dtype dtype)
{
    uint8_t code;
    switch (uf_dtype_kind(dtype)) {
    case 'b': code = kDLBool; break;
    case 'i': code = kDLInt; break;
    case 'u': code = kDLUInt; break;
    case 'f': code = kDLFloat; break;
    default: code = kDLComplex; break;
    }
    return (DLDataType){code, (uint8_t)(uf_dtype_itemsize(dtype) * 8), 1};
}

static const char *code_name(uint8_t code)
{
    static const char *const names[] = {
        "kDLInt",   "kDLUInt",    "kDLFloat", "kDLOpaqueHandle",
        "kDLBfloat", "kDLComplex", "kDLBool"};
    if (code < sizeof names / sizeof names[0])
        return names[code];
    return code <= kDLFloat4_e2m1fn ? "a sub-byte or 8-bit float" : "unknown";
}

int uf__dtype_from_dlpack(DLDataType t, uf_dtype *out, uf_error *err)
{
    if (t.lanes == 1)
        for (int d = 0; d < UF_NTYPES; d++) {
            DLDataType m = uf__dlpack_dtype((uf_dtype)d);
            if (m.code == t.code && m.bits == t.bits) {
                *out = (uf_dtype)d;
                return 0;
            }
        }
    return uf__error_set(err, UF_ERR_TYPE,
                         "DLPack: unsupported dtype (code %u = %s, %u bits, "
                         "%u lanes): ufjit takes bool (8 bits), signed and "
                         "unsigned integers of 8 to 64 bits, float32, "
                         "float64, complex64 and complex128, one lane",
                         (unsigned)t.code, code_name(t.code),
                         (unsigned)t.bits, (unsigned)t.lanes);
}

const char *uf__dlpack_device_name(int device_type, char buf[32])
{
    switch (device_type) {
    case kDLCPU: return "kDLCPU";
    case kDLCUDA: return "kDLCUDA";
    case kDLCUDAHost: return "kDLCUDAHost";
    case kDLCUDAManaged: return "kDLCUDAManaged";
    case kDLROCM: return "kDLROCM";
    case kDLROCMHost: return "kDLROCMHost";
    case kDLOpenCL: return "kDLOpenCL";
    case kDLVulkan: return "kDLVulkan";
    case kDLMetal: return "kDLMetal";
    case kDLOneAPI: return "kDLOneAPI";
    default:
        snprintf(buf, 32, "device type %d", device_type);
        return buf;
    }
}
