/* SPDX-License-Identifier: MIT */
/*
 * libFuzzer target for the perf.data reader: the input as a file-mode or
 * pipe-mode perf.data in memory, read twice: for its memory samples, and
 * with every other record handed to the IP-sample weighting's placement
 * code (src/weight/image.c: MMAP, MMAP2, FORK, COMM records; IP samples
 * decoded and relocated) for a user-space and a kernel image described
 * here (seeds: cpu-clock recordings by perf record and structlint
 * record).  An input that does not start with
 * PERFILE2 has its first byte pick what to prepend: 0: nothing, 1: a pipe header,
 * 2: a pipe header and a HEADER_ATTR with every sample_type bit.  Crashes,
 * leaks, out-of-bounds reads and hangs are bugs; SLT_E* is the answer to
 * garbage.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "samples/perf_data.h"
#include "weight/weight_int.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static int sink(void *ctx, const struct slt_sample *s)
{
	*(uint64_t *)ctx += s->addr ^ s->ip ^ s->data_src;
	return 0;
}

/* Records other than memory samples, as src/weight/weight.c takes them. */
static int place(void *ctx, const struct slt_perf_attr *a, const uint8_t *rec,
		 size_t size, uint64_t off)
{
	struct ipw_image *im = ctx;
	(void)off;
	if (!a)
		return ipw_image_record(im, rec, size) == SLT_ENOMEM;
	struct slt_perf_sample s;
	uint64_t out;
	uint16_t misc;
	memcpy(&misc, rec + 4, 2);
	if (slt_perf_sample_fields(a, rec, size, &s) == 0)
		ipw_image_reloc(im, s.pid, (misc & 7) == PERF_RECORD_MISC_KERNEL, s.ip, &out);
	return 0;
}

/* An image as ipw_image_open() fills it, without a file. */
static void image(struct ipw_image *im, bool kernel)
{
	memset(im, 0, sizeof(*im));
	im->real = strdup(kernel ? "/boot/vmlinux" : "/tmp/fs");
	im->base = im->real ? strrchr(im->real, '/') + 1 : "";
	im->kernel = kernel;
	im->text = im->stext = 0xffffffff81000000ull;
	im->lo = kernel ? im->text : 0;
	im->hi = kernel ? im->text + 0x2000000 : 0x6000;
	im->n_seg = 2;
	im->seg[0].vaddr = kernel ? im->text : 0;
	im->seg[0].filesz = im->seg[0].memsz = 0x1000;
	im->seg[1].vaddr = kernel ? im->text + 0x1000 : 0x1000;
	im->seg[1].off = 0x1000;
	im->seg[1].filesz = 0x1000;
	im->seg[1].memsz = 0x5000;
	im->build_id_len = 20;
	memset(im->build_id, 0xab, 20);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	if (size < 1)
		return 0;
	unsigned mode = 0;
	if (size < 8 || memcmp(data, "PERFILE2", 8)) {
		mode = data[0] % 3;
		data++;
		size--;
	}
	size_t pre = mode == 0 ? 0 : mode == 1 ? 16 : 16 + 8 + sizeof(struct perf_event_attr);
	uint8_t *buf = malloc(pre + size + 1);
	if (!buf)
		return 0;
	if (mode) {
		memcpy(buf, "PERFILE2", 8);
		uint64_t hs = 16;
		memcpy(buf + 8, &hs, 8);
	}
	if (mode == 2) {
		struct perf_event_attr a;
		memset(&a, 0, sizeof(a));
		a.size = sizeof(a);
		a.sample_type = (PERF_SAMPLE_MAX - 1) & ~(uint64_t)PERF_SAMPLE_WEIGHT_STRUCT;
		a.read_format = PERF_FORMAT_GROUP | PERF_FORMAT_ID | PERF_FORMAT_LOST;
		a.branch_sample_type = PERF_SAMPLE_BRANCH_HW_INDEX;
		a.sample_regs_user = 0xf;
		a.sample_regs_intr = 0x3;
		struct perf_event_header h = { SLT_PERF_RECORD_HEADER_ATTR, 0, (uint16_t)(8 + sizeof(a)) };
		memcpy(buf + 16, &h, 8);
		memcpy(buf + 24, &a, sizeof(a));
	}
	memcpy(buf + pre, data, size);
	uint64_t acc = 0;
	struct slt_samples_info info;
	struct slt_error err;
	slt_error_clear(&err);
	slt_perf_data_read_mem(buf, pre + size, "fuzz", sink, &acc, &info, &err);
	for (int k = 0; k < 2; k++) {
		struct ipw_image im;
		image(&im, k == 1);
		if (im.real) {
			slt_error_clear(&err);
			slt_perf_data_read_mem_hook(buf, pre + size, "fuzz", NULL, NULL, place, &im,
						    &info, &err);
		}
		ipw_image_free(&im);
	}
	free(buf);
	return 0;
}
