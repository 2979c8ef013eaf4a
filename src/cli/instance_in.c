/* SPDX-License-Identifier: MIT */
/*
 * suggest --in CONTAINER.MEMBER (issue 13 item 4): where the analysed
 * struct's instance lives.  CONTAINER is loaded from the same FILE with
 * nested members inline, MEMBER (a dotted path) must be a member of the
 * analysed struct's type, and its offset in CONTAINER becomes the
 * advisor's base_offset: the instance starts that far past a base that is
 * line-aligned, or a multiple of --base-align.
 */
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "cli/cli.h"
#include "join/join_int.h"
#include "structlint/layout.h"

int cli_base_align_option(const char *arg, unsigned *out)
{
	unsigned long v;
	if (!cli_parse_uint(arg, 1, 4096, &v) || (v & (v - 1)))
		return cli_usage_error("--base-align '%s': want a power of two from 1 to 4096 (the alignment the instance's base is known to have)", arg);
	*out = (unsigned)v;
	return 0;
}

int cli_instance_offset(const char *file, const struct slt_load_opts *lo,
			const char *spec, const struct slt_struct *s,
			uint64_t *off, struct slt_error *err)
{
	char cname[256], path[512];
	const char *dot = strchr(spec, '.');
	struct slt_load_opts o = *lo;
	struct slt_layout *l = NULL;
	const char *ops[1] = { cname };
	int rc;

	if (!dot || dot == spec || !dot[1] || (size_t)(dot - spec) >= sizeof(cname))
		return cli_usage_error("--in '%s': want CONTAINER.MEMBER, e.g. inode.i_data", spec);
	snprintf(cname, sizeof(cname), "%.*s", (int)(dot - spec), spec);
	o.expand = true;
	rc = slt_layout_load(file, ops, 1, &o, &l, err);
	if (rc)
		return rc;
	const struct slt_struct *c = &l->structs[0];
	rc = -1;
	for (size_t i = 0; i < c->n_members && rc; i++) {
		if (strcmp(slt_member_path(c, i, path, sizeof(path)), dot + 1))
			continue;
		const struct slt_member *m = &c->members[i];
		const char *t = m->type;
		if (!strncmp(t, "struct ", 7))
			t += 7;
		if (strcmp(t, s->name) || m->size != s->size) {
			rc = cli_usage_error("--in %s: that member is a %s of %" PRIu64
					     " bytes, not struct %s (%" PRIu64 " bytes)",
					     spec, m->type, m->size, s->name, s->size);
			break;
		}
		*off = m->offset;
		rc = 0;
	}
	if (rc < 0)
		rc = cli_usage_error("--in %s: struct %s has no member %s", spec, cname, dot + 1);
	slt_layout_free(l);
	return rc;
}
