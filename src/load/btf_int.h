/* SPDX-License-Identifier: MIT */
/*
 * Internal to the BTF source (src/load/btf*.c): the source object and the
 * functions its files share.  btf.c opens and wraps libbpf, btf_type.c
 * translates BTF types into the graph of layout/types.h, btf_find.c holds
 * the name index and find/list/suggest.
 */
#ifndef SLT_LOAD_BTF_INT_H
#define SLT_LOAD_BTF_INT_H

#include <stdbool.h>
#include <stdint.h>

#include <bpf/btf.h>

#include "common/arena.h"
#include "load/source.h"

/* Bound on nested type references (typedef -> const -> array -> struct by
 * value -> ...).  Real kernels stay far below; corrupt input with a loop
 * stops here instead of exhausting the stack. */
#define BTF_MAX_DEPTH 256u

#define HINT_CORRUPT "the BTF is malformed: regenerate it (pahole -J) or read DWARF instead"
#define HINT_NOBTF "the kernel needs CONFIG_DEBUG_INFO_BTF=y"

/* One distinct name in the name index: head of a chain of type ids (in id
 * order) through btf_src.next. */
struct name_ent {
	const char *name;
	uint32_t hash;
	uint32_t head;
};

struct btf_src {
	struct slt_source base;
	struct btf *btf;
	struct btf *base_btf;   /* vmlinux under split (module) BTF, or NULL */
	char *file;             /* path or name, for messages */
	char *base_file;
	bool offsets_are_file;  /* raw BTF file or memory: error offsets are
				   offsets in `file` */
	struct slt_arena *arena;
	uint32_t n_types;       /* btf__type_cnt(): ids 0 .. n_types - 1 */
	uint32_t n_base_types;  /* ids below this live in base_btf */
	uint32_t ptr_size;      /* bytes */
	struct slt_type **nodes;  /* by id, translated lazily */
	uint8_t *busy;            /* by id: struct members being translated */
	struct slt_type *void_node;
	/* Name index of struct, union, fwd and typedef names; built on first
	 * use by find/suggest. */
	uint32_t *next;
	struct name_ent *tab;
	size_t tab_cap;           /* power of two, 0 until built */
};

/* SLT_ECORRUPT for type `id`: the message names the id and the byte
 * offset of its record (file offset for raw BTF, .BTF offset for ELF). */
int slt_btf_corrupt(struct btf_src *s, uint32_t id, struct slt_error *err,
		    const char *fmt, ...) __attribute__((format(printf, 4, 5)));
/* SLT_ENOMEM, naming the source's file. */
int slt_btf_nomem(struct btf_src *s, struct slt_error *err);

/* A zeroed node from the source's arena; NULL when out of memory. */
struct slt_type *slt_btf_new_node(struct btf_src *s, enum slt_tkind kind,
				  uint32_t id, const char *name);
/*
 * The node of type `id` (*out NULL for void), translated on first use and
 * cached; full: also the members of every struct/union held by value.
 * depth counts nested references (bounded by BTF_MAX_DEPTH).  Returns 0 or
 * SLT_ECORRUPT / SLT_ENOMEM with err filled.
 */
int slt_btf_xlate(struct btf_src *s, uint32_t id, bool full, unsigned depth,
		  struct slt_type **out, struct slt_error *err);

/* The find/list/suggest ops (see load/source.h). */
int slt_btf_find(struct slt_source *src, const char *name,
		 struct slt_type ***out, size_t *n_out, struct slt_error *err);
int slt_btf_list(struct slt_source *src, slt_source_list_cb cb, void *ctx,
		 struct slt_error *err);
int slt_btf_suggest(struct slt_source *src, const char *name, size_t max,
		    char ***out, struct slt_error *err);

#endif
