/* Symbol export for libufjit: the library is built with hidden visibility, so
 * only declarations marked UF_EXPORT are part of the public ABI. */
#ifndef UFJIT_EXPORT_H
#define UFJIT_EXPORT_H

#if defined(UFJIT_STATIC_DEFINE)
#define UF_EXPORT
#elif defined(__GNUC__)
#define UF_EXPORT __attribute__((visibility("default")))
#else
#define UF_EXPORT
#endif

#ifdef __cplusplus
#define UF_BEGIN_DECLS extern "C" {
#define UF_END_DECLS }
#else
#define UF_BEGIN_DECLS
#define UF_END_DECLS
#endif

#endif
