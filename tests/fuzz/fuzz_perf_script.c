/* SPDX-License-Identifier: MIT */
/*
 * libFuzzer target for the perf script text parser: the bytes through
 * its detector, through the parser named explicitly and through
 * auto-detection.  Any crash, leak, out-of-bounds read or hang is a bug;
 * a clean SLT_E* error is the expected answer to garbage.  Every record's
 * strings are read to their NUL so ASan sees a bad pointer.
 */
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "samples/parsers.h"
#include "structlint/samples.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static volatile size_t sink;

static int touch(void *ctx, const struct slt_sample *s)
{
	size_t x = s->loads + s->stores + s->cycles + (size_t)s->addr + (size_t)s->ip;
	const char *str[] = { s->symbol, s->object, s->event };
	for (size_t i = 0; i < sizeof(str) / sizeof(str[0]); i++)
		if (str[i])
			x += strlen(str[i]);
	sink += x;
	(*(unsigned *)ctx)++;
	return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	sink += (size_t)slt_perf_script_detect(data, size < SLT_DETECT_BYTES ? size : SLT_DETECT_BYTES);
	static const enum slt_samples_format f[] = {
		SLT_SAMPLES_PERF_SCRIPT, SLT_SAMPLES_AUTO,
	};
	for (size_t i = 0; i < sizeof(f) / sizeof(f[0]); i++) {
		unsigned n = 0;
		struct slt_samples_info info;
		struct slt_error err;
		slt_error_clear(&err);
		int rc = slt_samples_read_mem(data, size, "fuzz", f[i], touch, &n,
					      &info, &err);
		if (rc == 0 && info.records != n)
			__builtin_trap();  /* records must count deliveries */
	}
	return 0;
}
