/* SPDX-License-Identifier: MIT */
/* read_perf_data FILE: count the samples
 * through slt_samples_read(), format detected (bench/samples.sh times this). */
#include <stdio.h>

#include "structlint/samples.h"

static int count(void *ctx, const struct slt_sample *s)
{
	*(unsigned long long *)ctx += s->loads + s->stores;
	return 0;
}

int main(int argc, char **argv)
{
	unsigned long long n = 0;
	struct slt_error err;
	slt_error_clear(&err);
	if (argc != 2 || slt_samples_read(argv[1], SLT_SAMPLES_AUTO, count, &n, NULL, &err)) {
		char buf[2048];
		fprintf(stderr, "read_perf_data: %s\n", slt_error_format(&err, buf, sizeof(buf)));
		return 2;
	}
	printf("%llu\n", n);
	return 0;
}
