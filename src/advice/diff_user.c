/* SPDX-License-Identifier: MIT */
/*
 * The user-space forms of the --source-root diff (diff_int.h): ISO C has
 * no zero-size member (-pedantic), so a padding member is
 * `_Alignas(STRUCTLINT_CACHELINE_BYTES)` on the next member's
 * declaration, or where that cannot go (a bitfield, a declaration of
 * several members, the end of the struct, a wrapper) a char array of the
 * exact bytes up to the line, the struct's line alignment then on its
 * first member; and the line size's definition before the struct.
 */
#include <stdio.h>
#include <string.h>

#include "advice/advice_int.h"
#include "advice/diff_int.h"

/* The orig top member whose declaration proposal padding member i's
 * alignment goes on (_Alignas), or -1 when the char array form is
 * needed. */
static long alignas_target(struct build *bd, size_t i, const bool *used)
{
	const struct slt_struct *ps = bd->ps;
	size_t j = i + 1;

	while (j < ps->n_members && ps->members[j].parent != -1)
		j++;
	long k = j < ps->n_members && !slt_diff_is_pad(&ps->members[j]) &&
		 !(ps->members[j].flags & SLT_MEMBER_BITFIELD) &&
		 ps->members[j].type != slt_adv_wrap_type ?
		 slt_diff_orig_top(ps, j, bd->o, used) : -1;
	if (k >= 0 && bd->chunk_of[k] != SIZE_MAX && bd->ch[bd->chunk_of[k]].n_tops == 1)
		return k;
	return -1;
}

char *slt_diff_user_pad_line(struct build *bd, size_t i, const bool *used)
{
	const struct slt_member *m = &bd->ps->members[i];
	uint64_t gap;

	if (alignas_target(bd, i, used) >= 0)
		return slt_arena_printf(bd->a, "%s_Alignas(" SLT_ADV_LINE_CONST ") /* %s: "
					"the next member starts a cache line */%s",
					bd->indent, m->name, bd->eol);
	gap = m->offset - slt_adv_level_end(bd->ps, i);
	if (!gap)
		return slt_arena_printf(bd->a, "%s/* %s: the next member starts a cache line */%s",
					bd->indent, m->name, bd->eol);
	return slt_arena_printf(bd->a, "%schar %s[%llu]; /* up to the next cache line */%s",
				bd->indent, m->name, (unsigned long long)gap, bd->eol);
}

int slt_diff_user_first_line(struct build *bd, struct slt_dlines *nl, size_t i, long oi)
{
	const struct slt_struct *ps = bd->ps;
	bool *none = NULL;
	const char *pad = NULL;
	char *l;

	if (!bd->user)
		return 0;
	for (size_t k = 0; k < ps->n_members && !pad; k++) {
		if (ps->members[k].parent != -1 || !slt_diff_is_pad(&ps->members[k]))
			continue;
		if (!none && !(none = slt_arena_calloc(bd->a, bd->o->n_members + 1, sizeof(*none))))
			return SLT_ENOMEM;
		if (alignas_target(bd, k, none) < 0)
			pad = ps->members[k].name;
	}
	if (!pad)
		return 0;
	if ((ps->members[i].flags & SLT_MEMBER_BITFIELD) || oi < 0 ||
	    bd->chunk_of[oi] == SIZE_MAX || bd->ch[bd->chunk_of[oi]].n_tops != 1)
		return slt_error_set_line(bd->err, SLT_EUSAGE, bd->s->path,
			oi >= 0 && bd->chunk_of[oi] != SIZE_MAX ? bd->ch[bd->chunk_of[oi]].lo : 0,
			"apply the C declaration by hand",
			"the struct's line alignment for %s cannot go on its first declaration "
			"(a bitfield or several members) in ISO C", pad);
	l = slt_arena_printf(bd->a, "%s_Alignas(" SLT_ADV_LINE_CONST ") /* the struct starts "
			     "a cache line (%s) */%s", bd->indent, pad, bd->eol);
	if (!l || slt_diff_add_line(nl, l, strlen(l)))
		return SLT_ENOMEM;
	return 0;
}
/* User space: the line size's definition (emit_c.c's) at file scope, before
 * the struct's declaration, when the proposal inserts padding or a wrapper
 * (aligned to the line: SLT_ADV_LINE_CONST). */
int slt_diff_user_line_def(struct build *bd, struct slt_dlines *nl)
{
	const struct slt_struct *ps = bd->ps;
	uint32_t line = 0;

	for (size_t i = 0; i < ps->n_members && !line; i++)
		if (ps->members[i].parent == -1 && (slt_diff_is_pad(&ps->members[i]) ||
						    ps->members[i].type == slt_adv_wrap_type))
			line = ps->members[i].alignment;
	if (!bd->user || !line)
		return 0;
	const char *l[3] = {
		slt_arena_printf(bd->a, "#ifndef " SLT_ADV_LINE_CONST "%s", bd->eol),
		slt_arena_printf(bd->a, "#define " SLT_ADV_LINE_CONST " %u /* the target's "
				 "cache line, bytes */%s", line, bd->eol),
		slt_arena_printf(bd->a, "#endif%s", bd->eol),
	};
	for (size_t k = 0; k < 3; k++)
		if (!l[k] || slt_diff_add_line(nl, l[k], strlen(l[k])))
			return SLT_ENOMEM;
	return 0;
}

