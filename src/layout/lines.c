/* SPDX-License-Identifier: MIT */
/* Cache line arithmetic and format names. */
#include <string.h>

#include "structlint/layout.h"

static unsigned cl_size(unsigned cacheline_size)
{
	return cacheline_size ? cacheline_size : SLT_CACHELINE_DEFAULT;
}

uint64_t slt_cachelines(uint64_t size, unsigned cacheline_size)
{
	unsigned cl = cl_size(cacheline_size);

	return size / cl + (size % cl != 0);
}

void slt_member_lines(const struct slt_member *m, unsigned cacheline_size,
		      uint64_t *first, uint64_t *last)
{
	unsigned cl = cl_size(cacheline_size);

	*first = m->offset / cl;
	*last = m->size ? (m->offset + m->size - 1) / cl : *first;
}

const char *slt_format_name(enum slt_format f)
{
	switch (f) {
	case SLT_FORMAT_DWARF: return "dwarf";
	case SLT_FORMAT_BTF: return "btf";
	default: return "none";
	}
}

enum slt_format slt_format_parse(const char *name)
{
	if (name && !strcmp(name, "dwarf"))
		return SLT_FORMAT_DWARF;
	if (name && !strcmp(name, "btf"))
		return SLT_FORMAT_BTF;
	return SLT_FORMAT_NONE;
}
