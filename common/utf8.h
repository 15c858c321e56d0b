/* UTF-8 as Python reads and writes it, for the lexer, run-time strings
 * and string arrays (common/utf8.c). */
#ifndef UF_COMMON_UTF8_H
#define UF_COMMON_UTF8_H

#include <stddef.h>
#include <stdint.h>

/* Decodes one UTF-8 character at s (at most n bytes): its length, and
 * the code point in *cp; 0 when the bytes are not valid UTF-8 (overlong,
 * surrogate, past U+10FFFF, truncated). */
int uf__utf8_decode(const char *s, size_t n, uint32_t *cp);

/* The UTF-8 bytes of code point c (at most 0x10FFFF; a surrogate gets
 * its 3-byte form, as Python's surrogatepass) into out, 4 bytes of room:
 * how many. */
int uf__utf8_put(uint32_t c, char *out);

#endif
