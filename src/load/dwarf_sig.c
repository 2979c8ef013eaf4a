/* SPDX-License-Identifier: MIT */
/*
 * DWARF source: the layout fingerprint of a struct/union definition, so
 * that find() translates one copy of a definition repeated in hundreds of
 * compile units (load/dwarf_int.h).  Read with the direct reader
 * (load/dwarf_raw.h), not libdwarf: a kernel struct's copies are hundreds
 * of DIEs each, and libdwarf allocates per DIE and per attribute.
 *
 * FNV-1a over each DIE's tag and attributes (but where it was declared,
 * DW_AT_sibling and other references into its own unit), following
 * DW_AT_type through typedefs, qualifiers, pointers and arrays, and into
 * the children of the root, of anonymous structs, unions and enums, and of
 * arrays (their bounds).  What the layout does not show is left out, so
 * that copies which print the same hash the same:
 *   - a named struct inside counts by its attributes (name, size,
 *     alignment), not its members (one kernel build has one layout per
 *     name: what `find` has always assumed);
 *   - a named struct reached through a pointer counts by tag and name
 *     only: whether the unit defines it or only declares it is invisible
 *     in "struct foo *" (task_struct's ~200 copies in Debian's 6.1
 *     vmlinux differ only there);
 *   - a function type is not followed (as before).
 * A DIE the direct reader cannot read (a form it does not decode, strx
 * names, bad data) gets a value of its own offset: its copy is translated
 * by libdwarf, which reports what is wrong.  Copies that hash the same may
 * still differ in print only where listed above; the caller compares the
 * layouts it builds anyway (load.c), so a hash that tells apart more than
 * the layout shows only costs time.
 */
#include <stdlib.h>
#include <string.h>

#include "load/dwarf_int.h"

#define SIG_MAX_DEPTH 32

static uint64_t mix(uint64_t h, const void *p, size_t n)
{
	const uint8_t *b = p;
	for (size_t i = 0; i < n; i++)
		h = (h ^ b[i]) * 0x100000001b3ull;
	return h;
}

static uint64_t mix_word(uint64_t h, uint64_t v)
{
	h = (h ^ v) * 0x100000001b3ull;
	return h ^ (h >> 29);
}

/*
 * Fingerprints of the DIEs below the root, kept for one find(): a type
 * shared by many members (int, a typedef, a pointer) is hashed once.  A
 * value depends on the depth it was computed at only through the depth
 * limit, so an entry records the height of its subtree of sig() calls and
 * is used only where that subtree stays within the limit (then the hash is
 * exactly what a fresh computation gives).  Keyed by offset and whether
 * the DIE was reached through a pointer.  Best effort: a failed
 * allocation only means no memo.
 */
struct sig_ent {
	uint64_t key1; /* key + 1; 0: empty */
	uint64_t h;
	unsigned height;
};

static struct sig_ent *memo_slot(struct slt_dw_sig *m, uint64_t key)
{
	size_t mask = m->cap - 1;
	size_t i = (size_t)((key * 0x9E3779B97F4A7C15ull) >> 32) & mask;
	while (m->e[i].key1 && m->e[i].key1 != key + 1)
		i = (i + 1) & mask;
	return &m->e[i];
}

static void memo_put(struct slt_dw_sig *m, uint64_t key, uint64_t h,
		     unsigned height)
{
	if ((m->n + 1) * 2 > m->cap) {
		size_t cap = m->cap ? m->cap * 2 : 4096;
		struct sig_ent *ne = calloc(cap, sizeof(*ne)), *old = m->e;
		if (!ne)
			return;
		size_t oc = m->cap;
		m->e = ne;
		m->cap = cap;
		for (size_t i = 0; i < oc; i++)
			if (old[i].key1)
				*memo_slot(m, old[i].key1 - 1) = old[i];
		free(old);
	}
	struct sig_ent *se = memo_slot(m, key);
	if (!se->key1)
		m->n++;
	*se = (struct sig_ent){ key + 1, h, height };
}

void slt_dw_sig_free(struct slt_dw_sig *m)
{
	free(m->e);
	memset(m, 0, sizeof(*m));
}

/* The value of a DIE that cannot be read: its own. */
static uint64_t own(uint64_t off)
{
	return (off + 1) * 0x9E3779B97F4A7C15ull ^ 0x5bd1e9955bd1e995ull;
}

/* h with die's tag and attributes mixed in (not DW_AT_type); *name: its
 * DW_AT_name, or NULL; false when an attribute cannot be hashed. */
static bool mix_die(const struct slt_raw_die *die, uint64_t *h,
		    const struct slt_raw_attr **name)
{
	*name = NULL;
	*h = mix_word(*h, die->tag);
	for (uint32_t i = 0; i < die->n; i++) {
		const struct slt_raw_attr *a = &die->a[i];
		switch (a->at) {
		case DW_AT_type: case DW_AT_sibling: case DW_AT_decl_file:
		case DW_AT_decl_line: case DW_AT_decl_column:
			continue;
		case DW_AT_name:
			*name = a;
			break;
		}
		switch (a->cls) {
		case SLT_RAW_CONST:
			*h = mix_word(mix_word(*h, a->at), a->u);
			break;
		case SLT_RAW_STR:
			if (!a->p) { /* an offset: one string, one offset
					(copies with the same name at two
					offsets only hash apart) */
				*h = mix_word(mix_word(mix_word(*h, a->at),
						       a->form), a->u);
				break;
			}
			/* fall through */
		case SLT_RAW_BLOCK:
			*h = mix_word(mix_word(*h, a->at), a->len);
			*h = mix(*h, a->p, a->len);
			break;
		case SLT_RAW_REF:
			break; /* a position in the unit, not a layout */
		default:
			return false;
		}
	}
	return true;
}

static uint64_t sig(struct dw *d, struct slt_dw_sig *m, uint64_t off,
		    unsigned depth, bool via_ptr, unsigned *height);

/* The type of die (DW_AT_type, a reference), mixed into *h; false when it
 * cannot be read. */
static bool mix_type(struct dw *d, struct slt_dw_sig *m,
		     const struct slt_raw_die *die, unsigned depth, bool via_ptr,
		     uint64_t *h, unsigned *height)
{
	const struct slt_raw_attr *t = slt_raw_get(die, DW_AT_type);
	if (!t)
		return true;
	if (t->cls != SLT_RAW_REF)
		return false;
	unsigned ht;
	*h = mix_word(*h, sig(d, m, t->u, depth + 1, via_ptr, &ht));
	if (ht + 1 > *height)
		*height = ht + 1;
	return true;
}

static bool is_agg(uint32_t tag)
{
	return tag == DW_TAG_structure_type || tag == DW_TAG_union_type ||
	       tag == DW_TAG_class_type;
}

/* The fingerprint of the DIE at off, reached at depth (0: the root),
 * through a pointer when via_ptr; *height: the depth of the sig() calls
 * below it. */
static uint64_t sig(struct dw *d, struct slt_dw_sig *m, uint64_t off,
		    unsigned depth, bool via_ptr, unsigned *height)
{
	uint64_t key = off << 1 | via_ptr;
	*height = 0;
	if (depth && m->cap) {
		const struct sig_ent *se = memo_slot(m, key);
		if (se->key1 && depth + se->height <= SIG_MAX_DEPTH) {
			*height = se->height;
			return se->h;
		}
	}
	if (depth > SIG_MAX_DEPTH)
		return 0;
	struct slt_raw_die die, c;
	const struct slt_raw_attr *name;
	uint64_t h = 0xcbf29ce484222325ull;
	if (slt_raw_die(&d->raw, off, &die) != 0)
		return own(off);
	bool agg = is_agg(die.tag);
	if (via_ptr && agg && (name = slt_raw_get(&die, DW_AT_name))) {
		/* "struct foo *": the tag and the name */
		if (name->cls != SLT_RAW_STR)
			return own(off);
		h = mix_word(h, die.tag);
		h = name->p ? mix(h, name->p, name->len)
			    : mix_word(mix_word(h, name->form), name->u);
		goto done;
	}
	if (!mix_die(&die, &h, &name))
		return own(off);
	if ((agg && (!name || depth == 0)) || die.tag == DW_TAG_array_type ||
	    (die.tag == DW_TAG_enumeration_type && !name)) {
		uint64_t at = die.children ? die.next : 0;
		const struct slt_raw_attr *cn;
		while (at) {
			int rc = slt_raw_die(&d->raw, at, &c);
			if (rc == 1)
				break;
			if (rc < 0 || !mix_die(&c, &h, &cn))
				return own(off);
			if (c.tag == DW_TAG_member &&
			    !mix_type(d, m, &c, depth, false, &h, height))
				return own(off);
			at = slt_raw_sibling(&d->raw, &c);
			if (!at)
				return own(off);
		}
	}
	if (!agg && die.tag != DW_TAG_subroutine_type) {
		bool ptr = die.tag == DW_TAG_pointer_type ||
			   die.tag == DW_TAG_reference_type ||
			   die.tag == DW_TAG_rvalue_reference_type;
		if (!mix_type(d, m, &die, depth, via_ptr || ptr, &h, height))
			return own(off);
	}
done:
	/* the root is hashed with its members, deeper named ones not */
	if (depth && depth + *height <= SIG_MAX_DEPTH)
		memo_put(m, key, h, *height);
	return h;
}

bool slt_dw_raw_ready(struct dw *d)
{
	if (!d->raw_state)
		d->raw_state = slt_raw_init(&d->raw, d->info, d->info_n,
					    d->abbrev, d->abbrev_n, d->str,
					    d->str_n, d->lstr, d->lstr_n,
					    slt_elf_is_le(d->elf)) ? -1 : 1;
	return d->raw_state > 0;
}

uint64_t slt_dw_sig(struct dw *d, struct slt_dw_sig *m, uint64_t off)
{
	if (!slt_dw_raw_ready(d))
		return own(off);
	/* References stay inside a unit (DW_FORM_ref*; ref_addr is rare):
	 * the memo of another unit is only in the way. */
	struct slt_raw_die die;
	int rc = slt_raw_die(&d->raw, off, &die);
	if (rc)
		return own(off);
	if (die.cu + 1 != m->cu1 && m->n) {
		if (m->cap > 65536) {
			free(m->e);
			m->e = NULL;
			m->cap = 0;
		} else {
			memset(m->e, 0, m->cap * sizeof(*m->e));
		}
		m->n = 0;
	}
	m->cu1 = die.cu + 1;
	unsigned ht;
	return sig(d, m, off, 0, false, &ht);
}
