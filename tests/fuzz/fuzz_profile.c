/* SPDX-License-Identifier: MIT */
/*
 * libFuzzer target for the JSON access profile and the classes inputs.
 * Every input goes to:
 *   - the profile reader; when it succeeds, its records are written with
 *     the profile writer and read again: the second read must succeed and
 *     give the same number of records and the same sample count (the
 *     round trip the format promises);
 *   - the classes file parser and the net_cachelines table parser, with a
 *     lookup of every entry found.
 * Any crash, leak, out-of-bounds read or hang is a bug; a clean SLT_E*
 * error is the expected answer to garbage.
 */
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "structlint/classes.h"
#include "structlint/profile.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

struct tally {
	uint64_t records, loads, stores;
	struct slt_profile_writer *w;
};

static int count(void *ctx, const struct slt_sample *s)
{
	struct tally *t = ctx;
	t->records++;
	t->loads += s->loads;
	t->stores += s->stores;
	/* touch every pointer the record carries */
	volatile size_t sink = 0;
	if (s->type_name)
		sink += strlen(s->type_name);
	if (s->member)
		sink += strlen(s->member);
	if (s->symbol)
		sink += strlen(s->symbol);
	if (s->source)
		sink += strlen(s->source);
	if (s->event)
		sink += strlen(s->event);
	if (s->object)
		sink += strlen(s->object);
	for (size_t i = 0; i < s->n_cpus; i++)
		sink += s->cpus[i];
	(void)sink;
	if (t->w && slt_profile_writer_add(t->w, s) != 0)
		abort();
	return 0;
}

static void profile(const uint8_t *data, size_t size)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);
	if (!f)
		return;
	struct slt_error err;
	slt_error_clear(&err);
	struct tally a = { 0 };
	if (slt_profile_writer_new(f, "fuzz-out", NULL, &a.w, &err) != 0)
		abort();
	slt_error_clear(&err);
	int rc = slt_profile_parse(data, size, "fuzz", count, &a, NULL, &err);
	if (rc != 0) {
		if (err.code == 0 || err.code != rc)
			abort();        /* an error is always described */
		slt_profile_writer_free(a.w);
		fclose(f);
		free(buf);
		return;
	}
	slt_error_clear(&err);
	if (slt_profile_writer_finish(a.w, &err) != 0)
		abort();
	fclose(f);
	struct tally b = { 0 };
	slt_error_clear(&err);
	if (slt_profile_parse(buf, len, "fuzz-out", count, &b, NULL, &err) != 0 ||
	    a.records != b.records || a.loads != b.loads || a.stores != b.stores)
		abort();
	free(buf);
}

static void classes(const uint8_t *data, size_t size,
		    enum slt_classes_format fmt)
{
	struct slt_classes *c = NULL;
	struct slt_error err;
	slt_error_clear(&err);
	if (slt_classes_read_mem(data, size, "fuzz", fmt, NULL, &c, &err) != 0) {
		if (c || err.code == 0)
			abort();
		return;
	}
	for (size_t i = 0; i < c->n; i++) {
		const struct slt_class_entry *e = &c->entries[i];
		if (!slt_classes_find(c, e->struct_name, e->member))
			abort();       /* every entry can be found again */
		(void)slt_classes_lookup(c, e->struct_name, e->member,
					 SLT_PATH_RX);
	}
	slt_classes_free(c);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	profile(data, size);
	classes(data, size, SLT_CLASSES_FILE);
	classes(data, size, SLT_CLASSES_NET_CACHELINES);
	return 0;
}
