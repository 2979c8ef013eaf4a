/* SPDX-License-Identifier: MIT */
/*
 * Engine specs: which members play which role, by member name.  The
 * built-in maps follow the kernel's code (mm/memcontrol.c
 * __mod_memcg_lruvec_state() and mem_cgroup_css_rstat_flush(),
 * kernel/cgroup/rstat.c cgroup_rstat_updated() / cgroup_rstat_flush() and
 * cgroup_base_stat_flush(), Linux 6.1 .. 6.12); the generic replay takes
 * (member, class, loads, stores) tuples.
 */
#include <stdlib.h>
#include <string.h>

#include "engine/engine_int.h"
#include "join/join_int.h"

const char *slt_engine_role_name(enum slt_engine_role r)
{
	switch (r) {
	case SLT_ROLE_BACK_PTR: return "back-pointer";
	case SLT_ROLE_PERCPU_PTR: return "percpu-pointer";
	case SLT_ROLE_READ: return "read";
	case SLT_ROLE_HOT_WRITE: return "hot-write";
	case SLT_ROLE_FLUSH_READ: return "flush-read";
	case SLT_ROLE_FLUSH_WRITE: return "flush-write";
	case SLT_ROLE_FLUSH_LINK: return "flush-link";
	}
	return "?";
}

const char *slt_engine_lat_what(enum slt_engine_mode m)
{
	return m == SLT_ENGINE_REPLAY ? "access" : "update";
}

const char *slt_engine_flush_name(enum slt_engine_flush f)
{
	return f == SLT_FLUSH_LIST ? "list" : f == SLT_FLUSH_POP ? "pop" : "?";
}

enum slt_engine_flush slt_engine_flush_parse(const char *name)
{
	if (name && !strcmp(name, "list"))
		return SLT_FLUSH_LIST;
	if (name && !strcmp(name, "pop"))
		return SLT_FLUSH_POP;
	return 0;
}

static const char *const builtin_names[] = { "mem_cgroup_per_node", "cgroup", NULL };

const char *const *slt_engine_builtin_names(void)
{
	return builtin_names;
}

void slt_engine_spec_free(struct slt_engine_spec *spec)
{
	if (!spec)
		return;
	for (size_t i = 0; i < spec->n_roles; i++)
		free((char *)spec->roles[i].member);
	free(spec->roles);
	free(spec->struct_name);
	free(spec);
}

static struct slt_engine_spec *spec_new(const char *name,
					enum slt_engine_mode mode, size_t cap)
{
	struct slt_engine_spec *s = calloc(1, sizeof(*s));
	if (!s)
		return NULL;
	s->mode = mode;
	s->struct_name = strdup(name);
	s->roles = calloc(cap ? cap : 1, sizeof(*s->roles));
	if (!s->struct_name || !s->roles) {
		slt_engine_spec_free(s);
		return NULL;
	}
	return s;
}

static int spec_add(struct slt_engine_spec *s, const char *member,
		    enum slt_engine_role role, uint64_t loads, uint64_t stores,
		    bool optional, unsigned writer)
{
	char *m = strdup(member);
	if (!m)
		return SLT_ENOMEM;
	s->roles[s->n_roles++] = (struct slt_engine_role_spec){
		.member = m, .role = role, .loads = loads, .stores = stores,
		.optional = optional, .writer = writer,
	};
	return 0;
}

const char *eng_strip_tag(const char *name)
{
	if (!strncmp(name, "struct ", 7))
		return name + 7;
	if (!strncmp(name, "union ", 6))
		return name + 6;
	return name;
}

/* lruvec_stats is a pointer from 6.10 on (read on every update), embedded
 * before (written by the flush). */
static bool lruvec_stats_is_pointer(const struct slt_struct *s)
{
	if (!s)
		return true;
	for (size_t i = 0; i < s->n_members; i++)
		if (s->members[i].parent < 0 && !strcmp(s->members[i].name, "lruvec_stats")) {
			const char *t = s->members[i].type;
			size_t n = t ? strlen(t) : 0;
			return n && t[n - 1] == '*';
		}
	return true;
}

int slt_engine_spec_builtin(const char *name, const struct slt_struct *s,
			    struct slt_engine_spec **out,
			    struct slt_error *err)
{
	*out = NULL;
	const char *n = name ? eng_strip_tag(name) : "";
	struct slt_engine_spec *sp = NULL;
	int rc = 0;
	if (!strcmp(n, "mem_cgroup_per_node")) {
		if (!(sp = spec_new(n, SLT_ENGINE_STATS, 8)))
			goto nomem;
		bool ptr = lruvec_stats_is_pointer(s);
		rc = spec_add(sp, "memcg", SLT_ROLE_BACK_PTR, 0, 0, false, 0);
		if (!rc) rc = spec_add(sp, "lruvec_stats_percpu", SLT_ROLE_PERCPU_PTR, 0, 0, false, 0);
		if (!rc) rc = spec_add(sp, "lruvec_stats",
				       ptr ? SLT_ROLE_READ : SLT_ROLE_FLUSH_WRITE, 0, 0, false, 0);
		if (!rc) rc = spec_add(sp, "shrinker_info", SLT_ROLE_READ, 0, 0, false, 0);
		if (!rc) rc = spec_add(sp, "lruvec", SLT_ROLE_HOT_WRITE, 0, 0, false, 1);
		if (!rc) rc = spec_add(sp, "lru_zone_size", SLT_ROLE_HOT_WRITE, 0, 0, false, 1);
		if (!rc) rc = spec_add(sp, "iter", SLT_ROLE_HOT_WRITE, 0, 0, false, 1);
	} else if (!strcmp(n, "cgroup")) {
		if (!(sp = spec_new(n, SLT_ENGINE_STATS, 5)))
			goto nomem;
		sp->tree_via_pcpu = true;   /* cgroup_rstat_cpu(cgrp, cpu) */
		rc = spec_add(sp, "rstat_cpu", SLT_ROLE_PERCPU_PTR, 0, 0, false, 0);
		if (!rc) rc = spec_add(sp, "rstat_css_list", SLT_ROLE_FLUSH_READ, 0, 0, false, 0);
		if (!rc) rc = spec_add(sp, "rstat_flush_next", SLT_ROLE_FLUSH_LINK, 0, 0, true, 0);
		if (!rc) rc = spec_add(sp, "last_bstat", SLT_ROLE_FLUSH_WRITE, 0, 0, false, 0);
		if (!rc) rc = spec_add(sp, "bstat", SLT_ROLE_FLUSH_WRITE, 0, 0, false, 0);
	} else {
		return slt_error_set(err, SLT_EUSAGE, NULL, -1,
				     "built-in role maps: mem_cgroup_per_node, cgroup; give member classes (--classes) or a profile for other structs",
				     "no built-in role map for struct %s", n[0] ? n : "(none)");
	}
	if (rc)
		goto nomem;
	*out = sp;
	return 0;
nomem:
	slt_engine_spec_free(sp);
	return slt_error_set(err, SLT_ENOMEM, NULL, -1, NULL, "out of memory");
}

static int replay_role(enum slt_class c)
{
	switch (c) {
	case SLT_CLASS_READ_MOSTLY: return SLT_ROLE_READ;
	case SLT_CLASS_HOT_WRITE:
	case SLT_CLASS_MIXED:
	case SLT_CLASS_TRUE_SHARED: return SLT_ROLE_HOT_WRITE;
	default: return 0;
	}
}

int slt_engine_spec_replay(const char *struct_name,
			   const struct slt_engine_replay_member *m, size_t n,
			   struct slt_engine_spec **out, struct slt_error *err)
{
	*out = NULL;
	if (!struct_name || !struct_name[0])
		return slt_error_set(err, SLT_EUSAGE, NULL, -1, NULL, "replay: no struct name");
	size_t used = 0;
	for (size_t i = 0; i < n; i++) {
		if (!m[i].member || !m[i].member[0])
			return slt_error_set(err, SLT_EUSAGE, NULL, -1, NULL,
					     "replay: member %zu of %s has no name", i, struct_name);
		used += replay_role(m[i].cls) != 0;
	}
	if (!used)
		return slt_error_set(err, SLT_EUSAGE, NULL, -1,
				     "give at least one read-mostly or hot-write member (classes file or profile)",
				     "nothing to replay for struct %s: no member is read-mostly or hot-write",
				     eng_strip_tag(struct_name));
	struct slt_engine_spec *sp = spec_new(eng_strip_tag(struct_name), SLT_ENGINE_REPLAY, used);
	if (!sp)
		return slt_error_set(err, SLT_ENOMEM, NULL, -1, NULL, "out of memory");
	for (size_t i = 0; i < n; i++) {
		int role = replay_role(m[i].cls);
		if (role && spec_add(sp, m[i].member, role, m[i].loads, m[i].stores, false,
				     role == SLT_ROLE_HOT_WRITE ? m[i].writer : 0)) {
			slt_engine_spec_free(sp);
			return slt_error_set(err, SLT_ENOMEM, NULL, -1, NULL, "out of memory");
		}
	}
	*out = sp;
	return 0;
}

/* The writer group of a member from its per-CPU stores: the CPU that
 * stored most (cpus[] is sorted by CPU, so the lowest on a tie), numbered
 * 1, 2, ... in order of first appearance (seen[0..*n_seen) holds the CPUs
 * met so far); 0 when no CPU stored to it. */
static unsigned writer_group(const struct slt_member_access *ma,
			     int32_t *seen, size_t *n_seen)
{
	const struct slt_cpu_access *best = NULL;
	for (size_t c = 0; c < ma->n_cpus; c++)
		if (ma->cpus[c].stores && (!best || ma->cpus[c].stores > best->stores))
			best = &ma->cpus[c];
	if (!best)
		return 0;
	for (size_t k = 0; k < *n_seen; k++)
		if (seen[k] == best->cpu)
			return (unsigned)k + 1;
	seen[(*n_seen)++] = best->cpu;
	return (unsigned)*n_seen;
}

int slt_engine_spec_from_analysis(const struct slt_analysis *a,
				  struct slt_engine_spec **out,
				  struct slt_error *err)
{
	*out = NULL;
	const struct slt_struct *s = a->layout;
	struct slt_engine_replay_member *m = calloc(s->n_members + 1, sizeof(*m));
	char **paths = calloc(s->n_members + 1, sizeof(*paths));
	bool *taken = calloc(s->n_members + 1, sizeof(*taken));
	int32_t *cpus = calloc(s->n_members + 1, sizeof(*cpus));
	size_t n = 0, n_cpus = 0;
	int rc = 0;
	if (!m || !paths || !taken || !cpus) {
		rc = slt_error_set(err, SLT_ENOMEM, NULL, -1, NULL, "out of memory");
		goto done;
	}
	for (size_t i = 0; i < s->n_members; i++) {
		const struct slt_member *mb = &s->members[i];
		bool anc = false;
		for (int32_t p = mb->parent; p >= 0; p = s->members[p].parent)
			anc |= taken[p];
		if (anc || !mb->name[0] || !replay_role(a->classes[i].cls))
			continue;
		taken[i] = true;
		char buf[1024];
		if (!(paths[n] = strdup(slt_member_path(s, i, buf, sizeof(buf))))) {
			rc = slt_error_set(err, SLT_ENOMEM, NULL, -1, NULL, "out of memory");
			goto done;
		}
		m[n].member = paths[n];
		m[n].cls = a->classes[i].cls;
		if (a->profile) {
			const struct slt_member_access *ma = &a->profile->members[i];
			m[n].loads = ma->loads;
			m[n].stores = ma->stores;
			if (replay_role(m[n].cls) == SLT_ROLE_HOT_WRITE)
				m[n].writer = writer_group(ma, cpus, &n_cpus);
		}
		n++;
	}
	rc = slt_engine_spec_replay(s->name, m, n, out, err);
done:
	for (size_t i = 0; paths && i < n; i++)
		free(paths[i]);
	free(paths);
	free(m);
	free(taken);
	free(cpus);
	return rc;
}
