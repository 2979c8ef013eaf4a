/* SPDX-License-Identifier: MIT */
/* Pieces shared by the JSON writers (layout, report, advice).  Internal. */
#ifndef SLT_REPORT_JSON_OUT_H
#define SLT_REPORT_JSON_OUT_H

#include <jansson.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "structlint/error.h"

/* json_object_set_new() that records a failure (or a NULL v, an earlier
 * allocation failure) in *bad instead of returning it. */
void slt_json_set(json_t *o, const char *k, json_t *v, bool *bad);
/* json_array_append_new() likewise. */
void slt_json_push(json_t *arr, json_t *v, bool *bad);
/* An address as a "0x..." string: kernel addresses exceed jansson's signed
 * 64-bit integers.  NULL when out of memory. */
json_t *slt_json_hex(uint64_t v);

/*
 * Serialise doc (the reference is taken over and released) and write it
 * with a final newline: indented when pretty, else compact; keys in
 * insertion order.  bad: the document is incomplete (an allocation failed
 * while building it), so nothing is written.  Nothing is written either
 * when serialising fails, so stdout never holds partial JSON.  what names
 * the document in messages ("the JSON report").  Returns 0, SLT_ENOMEM or
 * SLT_EIO with err filled.
 */
int slt_json_write(FILE *out, json_t *doc, bool bad, bool pretty,
		   const char *what, struct slt_error *err);

#endif
