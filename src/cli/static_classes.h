/* SPDX-License-Identifier: MIT */
/*
 * Static member classes for the commands (internal to src/cli): the
 * access map of a binary, cached by build-id, and the classes its rule
 * proposes (include/structlint/access.h, "static member classes").
 */
#ifndef SLT_CLI_STATIC_CLASSES_H
#define SLT_CLI_STATIC_CLASSES_H

#include <stdbool.h>
#include <stddef.h>

#include "structlint/access.h"
#include "structlint/classes.h"
#include "structlint/layout.h"

/* The --classes word that asks for static classes. */
#define CLI_STATIC_CLASSES "static"
/* The label of classes from both: the static ones, some replaced by
 * --classes files. */
#define CLI_STATIC_GIVEN "static+given"
/* The name the static classes are read under (slt_class_entry.file):
 * this prefix and the binary's file name. */
#define CLI_STATIC_FILE_PREFIX "static classes of "

/* The basis line of outputs using static classes (text, JSON "basis",
 * SARIF run properties): "counted in the machine code: classes proposed
 * by the static access map of FILE (static)", with given (the --classes
 * files, or NULL) "..., with F's (static+given)".  Into buf. */
void cli_static_basis(char *buf, size_t size, const char *file, const char *given);

/* Static classes leave members unclassified (no site, or between the
 * rule's classes): warn on stderr, naming them, when a's layout (proposal
 * number k, 1-based, of suggest) puts such a top-level member on a line
 * with a hot-write one: a write it does there would be false sharing the
 * classes cannot see. */
struct slt_analysis;
void cli_static_unclassified_warn(const struct slt_analysis *a, size_t k,
				  const char *file);

/* The whole-binary access map of file, from the cache when it holds one
 * for file's build-id (unless no_cache): then with the sites of the named
 * types only (any size; NULL: all), else built (every type) and stored;
 * progress on stderr when it takes over a second and stderr is a
 * terminal.  Returns 0 and *out, or SLT_E* with err filled. */
int cli_access_map(const char *file, const char *const *types, size_t n_types,
		   bool no_cache, struct slt_access_map **out,
		   struct slt_error *err);

/* cli_access_map() with the types the summaries and static classes of
 * layout's structs read (slt_access_type_names()). */
int cli_access_map_for(const char *file, const struct slt_layout *layout,
		       bool no_cache, struct slt_access_map **out,
		       struct slt_error *err);

/* The classes file text (malloc()ed, *len bytes) the static rule writes
 * for the structs of layout.  Returns 0 or SLT_E*. */
int cli_static_text(struct slt_access_map *map, const struct slt_layout *layout,
		    char **text, size_t *len, struct slt_error *err);

/* The static classes of layout's structs from file's access map, read as
 * a classes file named "static classes of FILE".  SLT_EUSAGE without
 * file (the running kernel's BTF has no code).  Returns 0 and *out, or
 * SLT_E* with err filled. */
int cli_static_classes(const char *file, const struct slt_layout *layout,
		       bool no_cache, struct slt_classes **out,
		       struct slt_error *err);

/* The same merged with *cl, the classes of the --classes files (NULL:
 * none, then *cl is the static classes): a member the files give a class
 * (or one inside a member they give) keeps theirs, every other static
 * entry is added to *cl; *n_replaced counts the static entries dropped,
 * *n_new the given entries of layout's structs that replaced none (members
 * the static map had not classed).
 * Returns 0, or SLT_E* with err filled (*cl then holds what was merged:
 * free it). */
int cli_static_classes_over(const char *file, const struct slt_layout *layout,
			    bool no_cache, struct slt_classes **cl,
			    size_t *n_replaced, size_t *n_new, struct slt_error *err);

#endif
