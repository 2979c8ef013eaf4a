/* SPDX-License-Identifier: MIT */
#include "report/json_out.h"

#include <inttypes.h>
#include <stdlib.h>

void slt_json_set(json_t *o, const char *k, json_t *v, bool *bad)
{
	if (!v || json_object_set_new(o, k, v))
		*bad = true;
}

void slt_json_push(json_t *arr, json_t *v, bool *bad)
{
	if (!v || json_array_append_new(arr, v))
		*bad = true;
}

json_t *slt_json_hex(uint64_t v)
{
	char buf[24];
	snprintf(buf, sizeof(buf), "0x%" PRIx64, v);
	return json_string(buf);
}

int slt_json_write(FILE *out, json_t *doc, bool bad, bool pretty,
		   const char *what, struct slt_error *err)
{
	size_t flags = JSON_PRESERVE_ORDER |
		       (pretty ? JSON_INDENT(2) : JSON_COMPACT);
	char *text = bad || !doc ? NULL : json_dumps(doc, flags);
	json_decref(doc);
	if (!text)
		return slt_error_set(err, SLT_ENOMEM, "", -1, NULL,
				     "out of memory building %s", what);
	int rc = 0;
	if (fputs(text, out) == EOF || fputc('\n', out) == EOF || fflush(out))
		rc = slt_error_set(err, SLT_EIO, "<stdout>", -1,
				   "check the output device or pipe",
				   "writing %s failed", what);
	free(text);
	return rc;
}
