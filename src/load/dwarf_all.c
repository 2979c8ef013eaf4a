/* SPDX-License-Identifier: MIT */
/*
 * DWARF source: every struct and union at once (`structlint --all`), with
 * pahole's selection (pahole 1.24 with no -C, dwarves pahole.c
 * print_classes() and structures__add()): the compile units' top-level
 * struct, union and class definitions that have a name, in file order,
 * each (name, layout key) once, where the key is pahole 1.24's
 * type__compare(): the size, the number of members and, member by member,
 * the name, the bit offset and the bit-field size (not the member types).
 * A repeated definition costs its name, size and member attributes, read
 * with the direct reader (load/dwarf_raw.h; libdwarf where it cannot);
 * only a new one is translated.  Anonymous members count by an empty name, where
 * pahole skips the name comparison when either side has none.
 * Nodes are dropped every SLT_ALL_NODES translations, so memory follows one
 * struct's types, not the file's.
 */
#include <stdlib.h>
#include <string.h>

#include "load/dwarf_int.h"

#define SLT_ALL_NODES 200000u

struct seen {
	const char *name;   /* points into libdwarf's string sections, valid
			       while the source is; NULL: free slot */
	uint64_t key;       /* layout key, see above */
};

struct all_ctx {
	slt_source_list_cb cb;
	void *cbctx;
	struct seen *seen;  /* open addressing on (name, key) */
	size_t cap, n;
};

static uint64_t hash(const char *p)
{
	uint64_t h = 0xcbf29ce484222325ull;
	for (; *p; p++)
		h = (h ^ (uint8_t)*p) * 0x100000001b3ull;
	return h;
}

static struct seen *slot(struct all_ctx *a, const char *nm, uint64_t key)
{
	size_t i = (size_t)(hash(nm) ^ key * 0x9E3779B97F4A7C15ull) &
		   (a->cap - 1);
	while (a->seen[i].name &&
	       (a->seen[i].key != key || strcmp(a->seen[i].name, nm)))
		i = (i + 1) & (a->cap - 1);
	return &a->seen[i];
}

static int add(struct dw *d, struct all_ctx *a, const char *nm, uint64_t key)
{
	if ((a->n + 1) * 2 > a->cap) {
		size_t cap = a->cap ? a->cap * 2 : 4096, oc = a->cap;
		struct seen *old = a->seen;
		if (!(a->seen = calloc(cap, sizeof(*a->seen)))) {
			a->seen = old;
			return slt_error_set(d->err, d->rc = SLT_ENOMEM, d->path,
					     -1, NULL, "out of memory");
		}
		a->cap = cap;
		for (size_t i = 0; i < oc; i++)
			if (old[i].name)
				*slot(a, old[i].name, old[i].key) = old[i];
		free(old);
	}
	*slot(a, nm, key) = (struct seen){ nm, key };
	a->n++;
	return 0;
}

static uint64_t mix(uint64_t h, uint64_t v)
{
	for (int i = 0; i < 8; i++, v >>= 8)
		h = (h ^ (v & 0xff)) * 0x100000001b3ull;
	return h;
}

/* The key's member part: per DW_TAG_member, its name, where it is and
 * its bit-field size. */
static int key_cb(struct dw *d, Dwarf_Die c, Dwarf_Half tag, void *ctx)
{
	uint64_t *h = ctx;
	Dwarf_Off off = 0;
	Dwarf_Error e = NULL;
	struct attrs m;
	if (tag != DW_TAG_member)
		return 0;
	if (slt_dw_dieoffset(d, c, &off, &e) != DW_DLV_OK)
		return slt_dw_fail(d, e, 0, "offset");
	if (slt_dw_read_attrs(d, c, off, &m))
		return d->rc;
	for (const char *p = m.name ? m.name : ""; ; p++) {
		*h = (*h ^ (uint8_t)*p) * 0x100000001b3ull;
		if (!*p)
			break;
	}
	*h = mix(*h, m.loc);
	*h = mix(*h, m.has_dbo ? m.dbo : ~0ull);
	*h = mix(*h, m.bo);
	*h = mix(*h, m.bit_size);
	return 0;
}

/* A constant of the direct reader as slt_dw_read_attrs() takes it: data
 * forms as they are, a DWARF 2 location expression DW_OP_plus_uconst N or
 * DW_OP_constu N [DW_OP_plus] as N.  False for anything else. */
static bool raw_const(const struct slt_raw_attr *a, uint64_t *v)
{
	if (a->cls == SLT_RAW_CONST) {
		*v = a->u;
		return true;
	}
	return a->cls == SLT_RAW_BLOCK &&
	       slt_dw_member_loc_const(a->p, a->len, v);
}

/* The attribute at of die as a constant (0 when absent); false when it is
 * there but not one. */
static bool raw_num(const struct slt_raw_die *die, uint32_t at, uint64_t *v,
		    bool *has)
{
	const struct slt_raw_attr *a = slt_raw_get(die, at);
	*v = 0;
	if (has)
		*has = a != NULL;
	return !a || raw_const(a, v);
}

/* DW_AT_name of die ("" when it has none); false when it cannot be read. */
static bool raw_name(struct dw *d, const struct slt_raw_die *die,
		     const char **nm)
{
	const struct slt_raw_attr *a = slt_raw_get(die, DW_AT_name);
	const uint8_t *p;
	size_t len;
	*nm = "";
	if (!a)
		return true;
	if (!slt_raw_str(&d->raw, a, &p, &len))
		return false;
	*nm = (const char *)p; /* NUL-terminated in its section */
	return true;
}

/*
 * The name, declaration flag and key of the struct DIE at off read with
 * the direct reader (load/dwarf_raw.h): the same bytes key_cb() hashes,
 * without libdwarf's allocation per member and attribute (most of the
 * time of --all on a kernel: every copy of every header struct is keyed).
 * False when the direct reader cannot read it: libdwarf keys it.
 */
static bool raw_key(struct dw *d, uint64_t off, const char **nm, bool *decl,
		    uint64_t *key)
{
	struct slt_raw_die die, c;
	uint64_t v, size;
	if (!slt_dw_raw_ready(d) || slt_raw_die(&d->raw, off, &die) ||
	    !raw_name(d, &die, nm) || !raw_num(&die, DW_AT_declaration, &v, NULL) ||
	    !raw_num(&die, DW_AT_byte_size, &size, NULL))
		return false;
	*decl = v != 0;
	*key = mix(0xcbf29ce484222325ull, size);
	uint64_t at = die.children ? die.next : 0;
	while (at) {
		int rc = slt_raw_die(&d->raw, at, &c);
		if (rc == 1)
			break;
		if (rc < 0)
			return false;
		if (c.tag == DW_TAG_member) {
			const char *mn;
			uint64_t loc, dbo, bo, bits;
			bool has_dbo;
			if (!raw_name(d, &c, &mn) ||
			    !raw_num(&c, DW_AT_data_member_location, &loc, NULL) ||
			    !raw_num(&c, DW_AT_data_bit_offset, &dbo, &has_dbo) ||
			    !raw_num(&c, DW_AT_bit_offset, &bo, NULL) ||
			    !raw_num(&c, DW_AT_bit_size, &bits, NULL))
				return false;
			for (const char *p = mn; ; p++) {
				*key = (*key ^ (uint8_t)*p) * 0x100000001b3ull;
				if (!*p)
					break;
			}
			*key = mix(*key, loc);
			*key = mix(*key, has_dbo ? dbo : ~0ull);
			*key = mix(*key, bo);
			*key = mix(*key, bits);
		}
		if (!(at = slt_raw_sibling(&d->raw, &c)))
			return false;
	}
	return true;
}

static int all_cb(struct dw *d, Dwarf_Die die, Dwarf_Half tag, void *ctx)
{
	struct all_ctx *a = ctx;
	if (tag != DW_TAG_structure_type && tag != DW_TAG_union_type &&
	    tag != DW_TAG_class_type)
		return 0;
	const char *nm;
	Dwarf_Off off;
	Dwarf_Error e = NULL;
	bool decl;
	uint64_t key;
	if (slt_dw_dieoffset(d, die, &off, &e) != DW_DLV_OK)
		return slt_dw_fail(d, e, 0, "offset");
	if (raw_key(d, off, &nm, &decl, &key)) {
		if (!*nm || decl)
			return 0;
	} else {
		struct attrs at;
		if (slt_dw_name(d, die, &nm))
			return d->rc;
		if (!nm || !*nm)
			return 0;
		if (slt_dw_read_attrs(d, die, off, &at))
			return d->rc;
		if (at.decl)
			return 0;
		key = mix(0xcbf29ce484222325ull, at.byte_size);
		if (slt_dw_children(d, die, off, key_cb, &key))
			return d->rc;
	}
	if (a->cap && slot(a, nm, key)->name)
		return 0;
	if (d->map_n > SLT_ALL_NODES && slt_dw_reset_nodes(d))
		return d->rc;
	struct slt_type *t = slt_dw_tr(d, off, true);
	if (!t)
		return d->rc;
	if (add(d, a, nm, key))
		return d->rc;
	return a->cb(a->cbctx, t);
}

int slt_dw_all(struct slt_source *s, slt_source_list_cb cb, void *ctx,
	       struct slt_error *err)
{
	struct dw *d = (struct dw *)s;
	struct all_ctx a = { .cb = cb, .cbctx = ctx };
	d->err = err;
	d->rc = d->load_rc = 0;
	int rc = slt_dw_walk(d, NULL, all_cb, &a);
	if (!rc && !a.n)
		rc = slt_dw_split_check(d, NULL);
	free(a.seen);
	d->err = NULL;
	return rc;
}
