/* ufjit's dtypes as DLPack's DLDataType and back, and what DLPack's
 * device types are called in messages. */
#ifndef UF_INTEROP_DLPACK_DTYPE_H
#define UF_INTEROP_DLPACK_DTYPE_H

#include <ufjit/dlpack.h>
#include <ufjit/dtype.h>

/* bool is kDLBool of 8 bits (its storage), complex kDLComplex of 64 or
 * 128 bits (both parts), every type one lane. */
DLDataType uf__dlpack_dtype(uf_dtype dtype);

/* The dtype of a DLPack tensor's type; UF_ERR_TYPE naming the code, bits
 * and lanes for one ufjit lacks (vectors, bfloat16, float16, float8...). */
int uf__dtype_from_dlpack(DLDataType t, uf_dtype *out, uf_error *err);

/* "kDLCUDA", or "device type N" (in buf) for one without a name here. */
const char *uf__dlpack_device_name(int device_type, char buf[32]);

#endif
