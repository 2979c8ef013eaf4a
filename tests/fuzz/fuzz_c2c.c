/* SPDX-License-Identifier: MIT */
/*
 * libFuzzer target for the text sample parsers: the same bytes through
 * the perf c2c parser, the data-type profile parser and auto-detection.
 * Any crash, leak, out-of-bounds read or hang is a bug; a clean SLT_E*
 * error is the expected answer to garbage.  Every delivered record is
 * read in full (strings to their NUL, cpus[] to n_cpus) so ASan sees
 * a bad pointer.
 */
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "structlint/samples.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static volatile size_t sink;

static int touch(void *ctx, const struct slt_sample *s)
{
	size_t x = s->loads + s->stores + s->cycles + s->line_offset;
	const char *str[] = { s->type_name, s->symbol, s->source, s->object,
			      s->event, s->member };
	for (size_t i = 0; i < sizeof(str) / sizeof(str[0]); i++)
		if (str[i])
			x += strlen(str[i]);
	for (size_t i = 0; i < s->n_cpus; i++)
		x += s->cpus[i];
	sink += x;
	(*(unsigned *)ctx)++;
	return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static const enum slt_samples_format f[] = {
		SLT_SAMPLES_C2C, SLT_SAMPLES_DATATYPE, SLT_SAMPLES_PERF_MEM,
		SLT_SAMPLES_AUTO,
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
