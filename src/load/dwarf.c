/* SPDX-License-Identifier: MIT */
/*
 * DWARF source (see load/source.h): libdwarf over sections served from the
 * ELF mapping (load/elf.h) through libdwarf's object access interface, so no
 * section is copied and no relocation is applied to executables (ET_REL
 * files get theirs applied by elf.c).
 *
 * find() walks only each CU's top-level DIEs (C struct tags live there).
 * A pre-filter skips CUs that cannot define the name: a DIE named NAME has
 * DW_AT_name either inline (DW_FORM_string: "NAME\0" lies in the CU's bytes)
 * or as an offset into .debug_str/.debug_line_str (DW_FORM_strp/line_strp,
 * DWARF 5 sections 7.5.5 and 7.26) of some occurrence of "NAME\0" there, and
 * that offset's 4-byte encoding lies in the CU's bytes (the low half of an
 * 8-byte DWARF64 offset too).  The filter is off where names may come from
 * elsewhere (.debug_str_offsets/strx, dwz .gnu_debugaltlink, .debug_sup,
 * split DWARF) or when SLT_DWARF_NOFILTER is set in the environment (tests
 * compare both ways).
 *
 * This file: libdwarf object access glue, open and close; see
 * load/dwarf_int.h for the other files.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "load/dwarf_int.h"

/* ---- libdwarf glue ---------------------------------------------------- */

int64_t slt_dw_file_off(const struct dw *d, uint64_t off)
{
	return d->info_foff >= 0 && off < d->info_n ? d->info_foff + (int64_t)off
						    : -1;
}

int slt_dw_fail(struct dw *d, Dwarf_Error e, uint64_t off, const char *what)
{
	int code = d->rc ? d->rc : SLT_ECORRUPT; /* first error wins */
	if (!d->rc && d->load_rc) { /* a section libdwarf could not load */
		code = d->load_rc;
		if (d->err && !d->err->code)
			*d->err = d->load_err;
	}
	slt_error_set(d->err, code, d->path, slt_dw_file_off(d, off),
		      "the debug info is corrupt or uses an unsupported form",
		      "DWARF: %s at .debug_info+0x%llx: %s", what,
		      (unsigned long long)off, e ? dwarf_errmsg(e) : "bad data");
	if (e)
		dwarf_dealloc(d->dbg, e, DW_DLA_ERROR);
	if (!d->rc)
		d->rc = code;
	return code;
}

static int om_info(void *o, sec_index_t i, obj_section_t *s, int *e)
{
	struct dw *d = o;
	const struct slt_elf_section *h = slt_elf_section(d->elf, i);
	if (!h)
		return DW_DLV_NO_ENTRY;
	memset(s, 0, sizeof(*s));
	s->SEC_FIELD(addr) = h->addr;
	s->SEC_FIELD(type) = h->type;
	s->SEC_FIELD(size) = h->size;
	s->SEC_FIELD(link) = h->link;
	s->SEC_FIELD(info) = h->info;
	s->SEC_FIELD(entrysize) = h->entsize;
	s->SEC_FIELD(name) = h->name;
	if (slt_elf_section_compressed(d->elf, i)) {
		/* Served inflated, under its .debug_ name. */
		const uint8_t *p;
		size_t n;
		/* Undecodable: keep the stored size, so that libdwarf asks
		 * om_load() for it only if it needs it, and om_load()
		 * reports why it cannot be read. */
		if (!slt_elf_section_data(d->elf, i, &p, &n, NULL))
			s->SEC_FIELD(size) = n;
		if (strncmp(h->name, ".zdebug", 7) == 0)
			s->SEC_FIELD(name) =
				slt_arena_printf(d->keep, ".%s", h->name + 2);
	}
	return DW_DLV_OK;
}

static Dwarf_Endianness om_order(void *o)
{
	return slt_elf_is_le(((struct dw *)o)->elf) ? DW_OBJECT_LSB
						     : DW_OBJECT_MSB;
}

static Dwarf_Small om_size(void *o)
{
	return slt_elf_is64(((struct dw *)o)->elf) ? 8 : 4;
}

static Dwarf_Unsigned om_count(void *o)
{
	return slt_elf_nsections(((struct dw *)o)->elf);
}

static int om_load(void *o, sec_index_t i, Dwarf_Small **data, int *e)
{
	struct dw *d = o;
	const uint8_t *p;
	size_t n;
	struct slt_error le;
	slt_error_clear(&le);
	/* libdwarf 20210528 asks a package (.dwp) without a .debug_tu_index
	 * for that absent section, as index 0 (dwarf_get_debugfission_for_key) */
	if (i == 0 && d->dwo)
		return DW_DLV_NO_ENTRY;
	int rc = i == 0 ? slt_error_set(&le, SLT_ECORRUPT, d->path, -1, NULL,
					"DWARF: a section link is 0")
			: slt_elf_section_data(d->elf, i, &p, &n, &le);
	if (rc) {
		/* Kept aside: libdwarf may do without the section; if it
		 * fails, slt_dw_fail() reports this as the root cause. */
		if (!d->load_rc) {
			d->load_rc = rc;
			d->load_err = le;
		}
		*e = DW_DLE_SECTION_SIZE_OR_OFFSET_LARGE;
		return DW_DLV_ERROR;
	}
	if (!p)
		return DW_DLV_NO_ENTRY;
	*data = (Dwarf_Small *)p; /* libdwarf only reads it */
	return DW_DLV_OK;
}

/* The view's methods: the same sections, .debug_info from d->vbase on. */
static int omv_info(void *o, sec_index_t i, obj_section_t *s, int *e)
{
	struct dw *d = ((struct dw_view *)o)->d;
	int rc = om_info(d, i, s, e);
	if (rc == DW_DLV_OK && i == d->info_idx)
		s->SEC_FIELD(size) = d->info_n - d->vbase;
	return rc;
}

static Dwarf_Endianness omv_order(void *o)
{
	return om_order(((struct dw_view *)o)->d);
}

static Dwarf_Small omv_size(void *o)
{
	return om_size(((struct dw_view *)o)->d);
}

static Dwarf_Unsigned omv_count(void *o)
{
	return om_count(((struct dw_view *)o)->d);
}

static int omv_load(void *o, sec_index_t i, Dwarf_Small **data, int *e)
{
	struct dw *d = ((struct dw_view *)o)->d;
	if (i != d->info_idx)
		return om_load(d, i, data, e);
	*data = (Dwarf_Small *)d->info + d->vbase; /* libdwarf only reads it */
	return DW_DLV_OK;
}

#ifdef DW_LIBDWARF_VERSION_MAJOR
static Dwarf_Unsigned om_filesize(void *o) { return 0; }
static const obj_methods_t vmethods = {
	.om_get_section_info = omv_info, .om_get_byte_order = omv_order,
	.om_get_length_size = omv_size, .om_get_pointer_size = omv_size,
	.om_get_filesize = om_filesize, .om_get_section_count = omv_count,
	.om_load_section = omv_load,
};
static const obj_methods_t methods = {
	.om_get_section_info = om_info, .om_get_byte_order = om_order,
	.om_get_length_size = om_size, .om_get_pointer_size = om_size,
	.om_get_filesize = om_filesize, .om_get_section_count = om_count,
	.om_load_section = om_load,
};
#else
static const obj_methods_t methods = {
	.get_section_info = om_info, .get_byte_order = om_order,
	.get_length_size = om_size, .get_pointer_size = om_size,
	.get_section_count = om_count, .load_section = om_load,
};
static const obj_methods_t vmethods = {
	.get_section_info = omv_info, .get_byte_order = omv_order,
	.get_length_size = omv_size, .get_pointer_size = omv_size,
	.get_section_count = omv_count, .load_section = omv_load,
};
#endif

int slt_dw_dieoffset(struct dw *d, Dwarf_Die die, Dwarf_Off *off,
		     Dwarf_Error *e)
{
	int res = dwarf_dieoffset(die, off, e);
	if (res == DW_DLV_OK)
		*off += d->obase;
	return res;
}

int slt_dw_sibling(struct dw *d, Dwarf_Die c, Dwarf_Die *next, Dwarf_Error *e)
{
	*next = NULL;
	int res = dwarf_siblingof_b(d->dbg, c, 1, next, e);
	if (res != DW_DLV_OK)
		return res;
	Dwarf_Off a, b;
	if (dwarf_dieoffset(c, &a, e) == DW_DLV_OK && dwarf_dieoffset(*next, &b, e) == DW_DLV_OK &&
	    b > a)
		return DW_DLV_OK;
	dwarf_dealloc_die(*next);
	*next = NULL;
	return DW_DLV_ERROR;
}

/*
 * libdwarf 20210528's dwarf_offdie_b() sets up a context for every unit
 * before the one it is asked for (reading each unit's DIE, hashing its
 * whole abbreviation table) and dwarf_object_finish() frees them: 40 of
 * the 60 ms of a warm lookup of a struct in one of the 6.1 vmlinux's last
 * units.  The view is a second instance whose .debug_info starts at the
 * unit the replay needs, so it sets up only what follows.  References are
 * unit-relative (DW_FORM_ref*) but for DW_FORM_ref_addr, which read_attrs
 * keeps as the file's offset; one before the view fails to resolve and
 * the replay falls back to the walk.  Not for type units or split DWARF.
 */
int slt_dw_view(struct dw *d, uint64_t off)
{
	if (d->vdbg)
		return off >= d->vbase ? 0 : -1;
	if (!d->info_idx || d->dwo || !d->can_filter)
		return -1;
	uint64_t lo = slt_raw_unit_of(d->info, d->info_n,
				      slt_elf_is_le(d->elf), off);
	if (lo == UINT64_MAX || !lo)
		return -1; /* the first unit: nothing to skip */
	d->vbase = lo;
	d->vobj.d = d;
	d->viface.object = &d->vobj;
	d->viface.methods = &vmethods;
	Dwarf_Error e = NULL;
	if (dwarf_object_init_b(&d->viface, NULL, NULL, DW_GROUPNUMBER_ANY,
				&d->vdbg, &e) != DW_DLV_OK) {
		if (e)
			dwarf_dealloc(NULL, e, DW_DLA_ERROR);
		d->vdbg = NULL;
		d->vbase = 0;
		return -1;
	}
	return 0;
}
/* ---- open and close --------------------------------------------------- */

int slt_dw_reset_nodes(struct dw *d)
{
	struct slt_arena *a = slt_arena_new();
	if (!a)
		return slt_error_set(d->err, d->rc = SLT_ENOMEM, d->path, -1,
				     NULL, "out of memory");
	slt_arena_free(d->arena);
	d->arena = a;
	if (d->map_cap > 65536) {
		free(d->map);
		d->map = NULL;
		d->map_cap = 0;
	} else if (d->map) {
		memset(d->map, 0, d->map_cap * sizeof(*d->map));
	}
	d->map_n = 0;
	return 0;
}

static void dw_close(struct slt_source *s)
{
	struct dw *d = (struct dw *)s;
	if (!d)
		return;
	if (d->dbg) {
		slt_dw_files_free(d);
		Dwarf_Error e = NULL;
		dwarf_object_finish(d->dbg, &e);
	}
	if (d->vdbg) {
		Dwarf_Error e = NULL;
		dwarf_object_finish(d->vdbg, &e);
	}
	slt_dw_index_flush(d);
	slt_raw_free(&d->raw);
	slt_elf_close(d->elf);
	slt_arena_free(d->arena);
	slt_arena_free(d->keep);
	free(d->map);
	free(d->path);
	free(d);
}

static const struct slt_source_ops dw_ops = {
	.find = slt_dw_find, .find_many = slt_dw_find_many,
	.distinct = slt_dw_index_distinct, .all = slt_dw_all,
	.list = slt_dw_list, .suggest = slt_dw_suggest, .close = dw_close,
};

static int sec(struct dw *d, const char *name, const uint8_t **p, size_t *n)
{
	size_t i = slt_elf_find_section(d->elf, name);
	if (!i && name[1] == 'd') { /* legacy .zdebug_ */
		char z[64];
		snprintf(z, sizeof(z), ".z%s", name + 1);
		i = slt_elf_find_section(d->elf, z);
	}
	*p = NULL;
	*n = 0;
	return i ? slt_elf_section_data(d->elf, i, p, n, d->err) : 0;
}

void slt_dw_line_section(struct dw *d)
{
	if (d->line_tried)
		return;
	d->line_tried = true;
	struct slt_error le;
	slt_error_clear(&le);
	struct slt_error *keep = d->err;
	d->err = &le; /* without it, decl_file names are unknown: no error */
	if (sec(d, d->dwo ? ".debug_line.dwo" : ".debug_line", &d->line,
		&d->line_n)) {
		d->line = NULL;
		d->line_n = 0;
	}
	d->err = keep;
}

static bool has_dwarf(struct slt_elf *e)
{
	return slt_elf_find_section(e, ".debug_info") ||
	       slt_elf_find_section(e, ".zdebug_info") ||
	       slt_elf_find_section(e, ".debug_info.dwo");
}

/* Takes ownership of elf.  track_allocs: see dwarf_set_de_alloc_flag below;
 * use_cache: the name index may be read and written. */
static int open_elf(struct slt_elf *elf, bool track_allocs, bool use_cache,
		    struct slt_source **out, struct slt_error *err)
{
	struct dw *d = calloc(1, sizeof(*d));
	if (!d || !(d->arena = slt_arena_new()) || !(d->keep = slt_arena_new()) ||
	    !(d->path = strdup(slt_elf_path(elf)))) {
		if (d) {
			slt_arena_free(d->arena);
			slt_arena_free(d->keep);
		}
		free(d);
		slt_elf_close(elf);
		return slt_error_set(err, SLT_ENOMEM, NULL, -1, NULL,
				     "out of memory");
	}
	d->elf = elf;
	d->err = err;
	d->use_cache = use_cache;
	d->files_cu = ~(Dwarf_Off)0;
	d->base.ops = &dw_ops;
	d->base.format = SLT_FORMAT_DWARF;
	d->base.path = d->path;
	/* a split DWARF object (.dwo) or package (.dwp) names its sections
	 * .debug_*.dwo (DWARF 5 section 7.3.2) */
	bool dwo = !slt_elf_find_section(elf, ".debug_info") &&
		   !slt_elf_find_section(elf, ".zdebug_info") &&
		   slt_elf_find_section(elf, ".debug_info.dwo");
	d->dwo = dwo;
	int rc = sec(d, dwo ? ".debug_info.dwo" : ".debug_info", &d->info,
		     &d->info_n);
	size_t ii = slt_elf_find_section(elf, dwo ? ".debug_info.dwo"
						  : ".debug_info");
	d->info_idx = ii;
	d->info_foff = ii && !slt_elf_section_compressed(elf, ii)
			       ? (int64_t)slt_elf_section(elf, ii)->offset
			       : -1;
	if (!rc)
		rc = sec(d, dwo ? ".debug_str.dwo" : ".debug_str", &d->str,
			 &d->str_n);
	if (!rc)
		rc = sec(d, ".debug_line_str", &d->lstr, &d->lstr_n);
	if (!rc)
		rc = sec(d, dwo ? ".debug_abbrev.dwo" : ".debug_abbrev", &d->abbrev,
			 &d->abbrev_n);

	if (rc)
		goto fail;
	if (!d->info_n) {
		rc = slt_error_set(err, SLT_ENODEBUG, d->path, -1,
				   "build with -g, or install the -dbg/-dbgsym "
				   "package", "no DWARF debug info");
		goto fail;
	}
	static const char *const nofilter[] = {
		".debug_str_offsets", ".gnu_debugaltlink", ".debug_sup",
		".debug_info.dwo", ".debug_str_offsets.dwo", ".debug_types",
	};
	d->can_filter = !getenv("SLT_DWARF_NOFILTER") &&
			d->str_n < UINT32_MAX && d->lstr_n < UINT32_MAX;
	for (size_t i = 0; i < sizeof(nofilter) / sizeof(*nofilter); i++)
		if (slt_elf_find_section(elf, nofilter[i]))
			d->can_filter = false;
	/* libdwarf 20210528 double-frees on some malformed list headers */
	static const char *const lists[] = { ".debug_rnglists", ".debug_loclists" };
	for (size_t i = 0; i < 2 && !rc; i++) {
		const uint8_t *lp;
		size_t ln;
		rc = sec(d, lists[i], &lp, &ln);
		if (!rc)
			rc = slt_dw_check_lists(lp, ln, slt_elf_is_le(elf), lists[i],
						d->path, err);
		*(i ? &d->loclists_n : &d->rnglists_n) = ln;
		if (i)
			d->loclists = lp;
	}
	if (rc)
		goto fail;
	d->iface.object = d;
	d->iface.methods = &methods;
	Dwarf_Error e = NULL;
	/* libdwarf records every allocation in a search tree so that
	 * dwarf_finish() can free what callers forgot (libdwarf.h,
	 * dwarf_set_de_alloc_flag, 2020): a third of the time of a kernel
	 * lookup.  This loader frees every DIE, attribute, list, block,
	 * string and error it gets, so for files the tree is off.  But
	 * libdwarf 20210528's own error paths (dwarf_srcfiles on a corrupt
	 * line table) drop objects that only the tree would free: in-memory
	 * images -- the fuzz targets and tests, where inputs are hostile and
	 * many run in one process -- keep it on, so nothing leaks there.  The
	 * flag is process-wide and read at init. */
	dwarf_set_de_alloc_flag(track_allocs ? 1 : 0);
	int res = dwarf_object_init_b(&d->iface, NULL, NULL, DW_GROUPNUMBER_ANY,
				      &d->dbg, &e);
	if (res != DW_DLV_OK) {
		if (res == DW_DLV_ERROR && d->load_rc && err && !err->code)
			*err = d->load_err;
		rc = slt_error_set(err, res == DW_DLV_ERROR && d->load_rc
				   ? d->load_rc
				   : res == DW_DLV_NO_ENTRY ? SLT_ENODEBUG
							    : SLT_ECORRUPT,
				   d->path, -1, NULL, "libdwarf: %s",
				   e ? dwarf_errmsg(e) : "no DWARF sections");
		if (e)
			dwarf_dealloc(NULL, e, DW_DLA_ERROR);
		d->dbg = NULL;
		goto fail;
	}
	d->err = NULL;
	*out = &d->base;
	return 0;
fail:
	dw_close(&d->base);
	return rc;
}

int slt_source_open_dwarf(const char *path, const struct slt_load_opts *opts,
			  struct slt_source **out, struct slt_error *err)
{
	struct slt_elf *elf;
	*out = NULL;
	int rc = slt_elf_open(path, &elf, err);
	if (rc)
		return rc;
	if (!has_dwarf(elf)) {
		char *dbg = NULL;
		if (slt_elf_find_debug_file(elf, path,
					    opts ? opts->debug_root : NULL,
					    &dbg) == 0) {
			struct slt_elf *de;
			struct slt_error derr;
			slt_error_clear(&derr);
			rc = slt_elf_open(dbg, &de, &derr);
			slt_elf_close(elf);
			if (rc) {
				/* the file found is named, and what is wrong with it */
				slt_error_set(err, rc, path, -1,
					      "reinstall the -dbg/-dbgsym package, or set --debug-root",
					      "its separate debug file %s is unusable: %s", dbg,
					      derr.message);
				free(dbg);
				return rc;
			}
			if (!has_dwarf(de)) {
				slt_elf_close(de);
				rc = slt_error_set(err, SLT_ENODEBUG, path, -1,
						   "reinstall the -dbg/-dbgsym package, or set "
						   "--debug-root",
						   "its separate debug file %s has no DWARF debug "
						   "info (truncated, or not this file's)", dbg);
				free(dbg);
				return rc;
			}
			free(dbg);
			elf = de;
		}
		if (!has_dwarf(elf)) {
			slt_elf_close(elf);
			return slt_error_set(err, SLT_ENODEBUG, path, -1,
					     "build with -g, install the "
					     "-dbg/-dbgsym package, or set "
					     "--debug-root",
					     "no DWARF debug info (nor a "
					     "separate debug file)");
		}
	}
	return open_elf(elf, false, !(opts && opts->no_cache), out, err);
}

int slt_source_open_dwarf_mem(const void *data, size_t size, const char *name,
			      struct slt_source **out, struct slt_error *err)
{
	struct slt_elf *elf;
	*out = NULL;
	int rc = slt_elf_open_mem(data, size, name, &elf, err);
	return rc ? rc : open_elf(elf, true, false, out, err);
}
