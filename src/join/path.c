// SPDX-License-Identifier: MIT
/*
 * Member paths named by samples: "a.b", "slot[3]", "a[2].b[1]".
 *
 * A path names a member by its dotted names (anonymous levels are not
 * named).  Array subscripts in it select an element: the sample is then
 * placed on that element's bytes exactly as a profile entry naming the
 * member with the element's offset is ("slot[3]" of long slot[8] at 0 is
 * "slot" at offset 24), so that per-CPU slots are told apart (element
 * sharing) whichever way the profile spells them.
 */
#include <stdbool.h>
#include <stdint.h>
#include <string.h>

#include "join/join_int.h"

#define PATH_MAX_LEN 512
#define MAX_DIMS 8

/* path with subscripts removed, into want (size bytes). */
static void strip(const char *path, char *want, size_t size)
{
	size_t w = 0;
	for (const char *c = path; *c && w + 1 < size; c++) {
		if (*c == '[') {
			while (*c && *c != ']')
				c++;
			if (!*c)
				break;
			continue;
		}
		want[w++] = *c;
	}
	want[w] = 0;
}

/* The member whose path (anonymous levels left out) is want: its index,
 * -2 - i when want lies inside member i shown folded, -1 when none. */
static long by_stripped(const struct slt_struct *s, const char *want)
{
	char have[PATH_MAX_LEN];
	long folded = -1;
	for (size_t i = 0; i < s->n_members; i++) {
		const struct slt_member *m = &s->members[i];
		if (!m->name[0])
			continue;
		slt_member_path(s, i, have, sizeof(have));
		if (!strcmp(have, want))
			return (long)i;
		/* a path inside a member shown folded: that member */
		size_t hl = strlen(have);
		if ((m->flags & SLT_MEMBER_COMPOSITE) && !(m->flags & SLT_MEMBER_INLINE) &&
		    !strncmp(have, want, hl) && want[hl] == '.')
			folded = (long)i;
	}
	return folded == -1 ? -1 : -2 - folded;
}

size_t slt_member_unit(const struct slt_struct *s, size_t i)
{
	size_t u = i;
	for (int32_t p = (int32_t)i; p >= 0; p = s->members[p].parent)
		if (s->members[p].name[0])
			u = (size_t)p;
	return u;
}

long slt_join_member_by_path(const struct slt_struct *s, const char *path)
{
	char want[PATH_MAX_LEN];
	strip(path, want, sizeof(want));
	return by_stripped(s, want);
}

/* The dimensions of array member m from its decl_tail ("[5][5]"), into
 * dims; their count, 0 when m is no array or a dimension is unknown. */
static size_t dims_of(const struct slt_member *m, uint64_t dims[MAX_DIMS])
{
	const char *t = m->decl_tail;
	size_t n = 0;
	while (t && *t == '[' && n < MAX_DIMS) {
		uint64_t v = 0;
		for (t++; *t >= '0' && *t <= '9'; t++)
			if ((v = v * 10 + (uint64_t)(*t - '0')) > UINT32_MAX)
				return 0;
		if (*t++ != ']' || !v)
			return 0;
		dims[n++] = v;
	}
	return n;
}

/* Bytes from the start of member m to its element named by the subscripts
 * at *pc ("[2][1]..."; *pc moves past them).  false when m is no array of
 * that many dimensions or a subscript is out of range. */
static bool subscripts(const struct slt_member *m, const char **pc, uint64_t *add)
{
	uint64_t dims[MAX_DIMS], stride = m->size;
	size_t nd = dims_of(m, dims), k = 0;
	const char *c = *pc;
	while (*c == '[') {
		uint64_t v = 0;
		bool digit = false;
		for (c++; *c >= '0' && *c <= '9'; c++, digit = true)
			if ((v = v * 10 + (uint64_t)(*c - '0')) > UINT32_MAX)
				return false;
		if (*c++ != ']' || !digit || k == nd || v >= dims[k])
			return false;
		stride /= dims[k++];
		*add += v * stride;
	}
	*pc = c;
	return stride > 0;
}

int slt_join_path_place(const struct slt_struct *s, const char *path, long *member,
			uint64_t *off)
{
	char want[PATH_MAX_LEN];
	uint64_t add = 0;
	size_t w = 0;
	bool indexed = false;
	long last = -1;     /* the last member subscripted */
	*member = -1;
	for (const char *c = path; *c; ) {
		if (*c != '[') {
			if (w + 1 >= sizeof(want))
				return 0;
			want[w++] = *c++;
			continue;
		}
		want[w] = 0;
		long m = by_stripped(s, want);
		if (m < 0) {
			/* inside a folded member: placed by its name once the
			 * layout is read inline (the caller joins again) */
			*member = slt_join_member_by_path(s, path);
			return 0;
		}
		if (!subscripts(&s->members[m], &c, &add))
			return 0;  /* no such element: an unknown member */
		indexed = true;
		last = m;
	}
	want[w] = 0;
	long f = by_stripped(s, want);
	/* "e[1].b" of struct pair e[4] shown folded: inside e (the caller
	 * reads the layout inline and joins again) */
	if (f == -1 && last >= 0 && !(s->members[last].flags & SLT_MEMBER_INLINE))
		f = -2 - last;
	*member = f;
	if (!indexed || f < 0)
		return 0;
	/* the element's byte; charged to the innermost member of the path
	 * holding it ("a[2].b" lies in a, not in element 0's b) */
	uint64_t at = s->members[f].offset + add;
	for (long m = f; m >= 0; m = s->members[m].parent)
		if (at >= s->members[m].offset && at - s->members[m].offset < s->members[m].size) {
			*member = m;
			*off = at;
			return 1;
		}
	*member = -1;
	return 0;
}
