/* SPDX-License-Identifier: MIT */
/*
 * The findings' words: kind and basis names, and the fix each finding
 * advises (its writers named as CPUs, threads when the profile's writers
 * are threads, or the classes' writer labels).
 */
#include "analysis/analysis_int.h"
#include "analysis/findings_int.h"

static const char ADV_COLLISION[] =
	"move the read-mostly members to a line of their own, or separate the written ones with CACHELINE_PADDING";
static const char ADV_WRITE_WRITE[] =
	"put members written by different CPUs on different lines (reorder or CACHELINE_PADDING), or make them per-CPU";
static const char ADV_WRITE_WRITE_LABELS[] =
	"put members of different writers (their hot-write labels: threads, roles or CPUs) on different lines (reorder or CACHELINE_PADDING), or give each writer its own copy";
static const char ADV_WRITE_WRITE_THREADS[] =
	"put members written by different threads on different lines (reorder or CACHELINE_PADDING), or give each thread its own copy";
static const char ADV_TRUE[] =
	"true sharing: the CPUs contend on this member itself and no layout change helps; use per-CPU data or batch the updates";
static const char ADV_TRUE_THREADS[] =
	"true sharing: the threads contend on this member itself and no layout change helps; use per-thread data or batch the updates";
static const char ADV_ELEMENT[] =
	"false sharing between the array's elements: different CPUs write different elements (disjoint bytes) on this line; reordering members cannot split an array: pad each element to its own line (a ____cacheline_aligned element type) or make it per-CPU data";
static const char ADV_ELEMENT_THREADS[] =
	"false sharing between the array's elements: different threads write different elements (disjoint bytes) on this line; reordering members cannot split an array: pad each element to its own line (a ____cacheline_aligned element type) or give each thread its own copy";
static const char ADV_STRADDLE[] =
	"align the member so that it sits in one line, or move it";
static const char ADV_UNSEEN[] =
	"loads here hit a line modified in another cache (HITM), so the line is written, but the profile holds no store: record stores too (perf c2c record, perf mem record -t load,store) to see which member is written";
static const char ADV_ADJACENT[] =
	"the 128-byte line pair is prefetched together: keep written and read-mostly members in different pairs";

const char *slt_finding_kind_name(enum slt_finding_kind k)
{
	switch (k) {
	case SLT_FIND_COLLISION: return "collision";
	case SLT_FIND_WRITE_WRITE: return "write-write";
	case SLT_FIND_TRUE_SHARING: return "true-sharing";
	case SLT_FIND_STRADDLE: return "straddle";
	case SLT_FIND_ADJACENT: return "adjacent";
	case SLT_FIND_UNSEEN_WRITER: return "unseen-writer";
	case SLT_FIND_ELEMENT_SHARING: return "element-sharing";
	}
	return "unknown";
}

const char *slt_score_basis_name(enum slt_score_basis b)
{
	switch (b) {
	case SLT_BASIS_CLASSES: return "classes";
	case SLT_BASIS_COUNTS: return "counts";
	case SLT_BASIS_CPU: return "per-cpu";
	}
	return "unknown";
}

const char *slt_fd_advice(const struct slt_analysis *a, enum slt_finding_kind k,
			  bool labelled)
{
	/* the profile's writers are threads (IP samples with tids) */
	bool threads = a->profile && a->profile->writers_threads;
	switch (k) {
	case SLT_FIND_COLLISION: return ADV_COLLISION;
	case SLT_FIND_WRITE_WRITE:
		return labelled ? ADV_WRITE_WRITE_LABELS :
		       threads ? ADV_WRITE_WRITE_THREADS : ADV_WRITE_WRITE;
	case SLT_FIND_TRUE_SHARING: return threads ? ADV_TRUE_THREADS : ADV_TRUE;
	case SLT_FIND_STRADDLE: return ADV_STRADDLE;
	case SLT_FIND_ELEMENT_SHARING: return threads ? ADV_ELEMENT_THREADS : ADV_ELEMENT;
	case SLT_FIND_UNSEEN_WRITER: return ADV_UNSEEN;
	case SLT_FIND_ADJACENT: break;
	}
	return ADV_ADJACENT;
}
