/* SPDX-License-Identifier: MIT */
/*
 * gen_perf_data N OUT [pipe|zstd|zpipe]: write a perf.data of N memory
 * samples with structlint's writer (src/samples/perf_data_write.c), for
 * bench/samples.sh.  Samples look like `perf mem record` output on Intel:
 * one cpu/mem-loads event and one cpu/mem-stores event, sample_type
 * IDENTIFIER|IP|TID|TIME|ADDR|CPU|PERIOD|WEIGHT|DATA_SRC, addresses in a
 * 4 KiB window, 4 CPUs, FINISHED_ROUND every 1000 samples.
 */
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "samples/perf_data.h"

int main(int argc, char **argv)
{
	if (argc < 3) {
		fprintf(stderr, "usage: gen_perf_data N OUT [pipe|zstd|zpipe]\n");
		return 2;
	}
	unsigned long long n = strtoull(argv[1], NULL, 10);
	const char *mode = argc > 3 ? argv[3] : "file";
	unsigned flags = !strcmp(mode, "pipe") ? SLT_PDW_PIPE :
			 !strcmp(mode, "zstd") ? SLT_PDW_COMPRESS :
			 !strcmp(mode, "zpipe") ? SLT_PDW_PIPE | SLT_PDW_COMPRESS : 0;
	int fd = !strcmp(argv[2], "-") ? 1 : open(argv[2], O_RDWR | O_CREAT | O_TRUNC, 0644);
	if (fd < 0) {
		perror(argv[2]);
		return 2;
	}
	struct slt_error err;
	slt_error_clear(&err);
	struct slt_pdw *w;
	if (slt_pdw_open(&w, fd, flags, &err))
		return 2;
	struct perf_event_attr a;
	memset(&a, 0, sizeof(a));
	a.size = sizeof(a);
	a.type = PERF_TYPE_RAW;
	a.config = 0x1cd;     /* mem-loads on Intel */
	a.config1 = 30;       /* ldlat */
	a.sample_period = 4000;
	a.sample_type = PERF_SAMPLE_IDENTIFIER | PERF_SAMPLE_IP | PERF_SAMPLE_TID |
			PERF_SAMPLE_TIME | PERF_SAMPLE_ADDR | PERF_SAMPLE_CPU |
			PERF_SAMPLE_PERIOD | PERF_SAMPLE_WEIGHT | PERF_SAMPLE_DATA_SRC;
	a.sample_id_all = 1;
	a.precise_ip = 2;
	uint64_t ids0[4] = { 10, 11, 12, 13 }, ids1[4] = { 20, 21, 22, 23 };
	slt_pdw_add_event(w, &a, "cpu/mem-loads,ldlat=30/P", ids0, 4);
	a.config = 0x82d0;    /* mem-stores */
	a.config1 = 0;
	slt_pdw_add_event(w, &a, "cpu/mem-stores/P", ids1, 4);
	slt_pdw_set_info(w, 4, "6.1.0", argc, argv);
	uint64_t x = 88172645463325252ull;
	for (unsigned long long i = 0; i < n; i++) {
		x ^= x << 13; x ^= x >> 7; x ^= x << 17;
		unsigned cpu = (unsigned)(x & 3), ev = (unsigned)(x >> 2 & 1);
		struct slt_pdw_sample s = {
			.id = ev ? ids1[cpu] : ids0[cpu],
			.ip = 0x401120 + (x >> 8 & 0x3f),
			.pid = 4242, .tid = 4242 + cpu,
			.time = 1000000000ull + i * 100,
			.addr = 0x404000 + (x >> 16 & 0xff8),
			.cpu = cpu, .period = 4000,
			.weight = ev ? 0 : 30 + (x >> 32 & 0x1ff),
			.data_src = ev ? 0x144 : ((x >> 40 & 7) == 0 ? 0x800842 : 0x100142),
		};
		if (slt_pdw_sample(w, (int)ev, &s, &err))
			break;
		if (i % 1000 == 999) {
			struct perf_event_header h = { SLT_PERF_RECORD_FINISHED_ROUND, 0, 8 };
			slt_pdw_record(w, &h, 8, &err);
		}
	}
	if (slt_pdw_close(w, &err) || err.code) {
		fprintf(stderr, "gen_perf_data: %s\n", err.message);
		return 2;
	}
	return 0;
}
