/* SPDX-License-Identifier: MIT */
/*
 * The reference stats engine's figures (include/structlint/engine.h) as
 * text and as JSON, schema "structlint.engine/v1":
 *
 * {
 *   "schema": "structlint.engine/v1",
 *   "struct": NAME, "mode": "stats" | "replay", "size": BYTES,
 *   "cacheline_size": BYTES,
 *   "options": { "threads", "seconds", "updates" (per updater thread,
 *                null when timed), "depth", "fanout", "batch",
 *                "flush": "list" | "pop", "write_every" (these five null
 *                in replay mode: they do not apply), "seed", "pin",
 *                "realtime" (added to v1),
 *                "latency_every" },
 *   "roles": [ { "member", "role", "offset", "size" (bytes),
 *                "lines": [FIRST, LAST] (0-based cachelines) } ],
 *   "seconds": measured wall seconds,
 *   "ops": N, "ops_per_s": X,
 *   "threads": [ { "thread": I, "cpu": C (null: not pinned), "ops",
 *                  "ops_per_s", "cpu_seconds" (CPU time used),
 *                  "running_seconds" (inside its recorded running
 *                  intervals) } ],
 *   "overlap": fraction of "seconds" during which >= 2 updaters ran at
 *                  once, "overlap_all": all of them (engine.h,
 *                  Co-scheduling), "allowed_cpus", "distinct_cpus",
 *   "latency_ns": { "what": "update" | "access", "timed": N (updates
 *                   timed), "timed_batch_crossings": N, "p50", "p90",
 *                   "p99", "p99_9" (ns, 1 decimal) },
 *   "flushes": N, "batch_crossings": N, "flush_wakeups": N (crossings
 *                   that woke the flusher; the others coalesced),
 *   "flushed_groups": N,
 *   "stats": (stats mode) { "mode": "5.15-rc1" | "6.1" | "mainline",
 *                   "why": text or null, "counters": { "node_items",
 *                   "memcg_items", "event_items", "from_file" },
 *                   "locks": "spin" | "mutex", "read_every",
 *                   "period_ms", "worker_flushes", "reader_flushes",
 *                   "reader_checks", "periodic_flushes", "flush_busy",
 *                   "counters_visited" } (added to v1),
 *   "flush_lock", "percpu_lock", "percpu_update_lock" (of percpu_lock's
 *                   holds the update path's; added to v1):
 *                 { "holds": N (not preempted), "sum_ns",
 *                   "max_ns", "preempted": N, "preempted_sum_ns",
 *                   "preempted_max_ns",
 *                   "buckets_us": [ { "range": "0-1", "count": N }, ... ] },
 *   "groups": N (stats mode: groups in the tree),
 *   "accesses": [ { "thread": I (the flusher is I = threads), "member",
 *                   "loads", "stores" } ] (absent without counting)
 * }
 * Any change that drops or renames a key bumps the version.
 */
#include <inttypes.h>
#include <jansson.h>
#include <math.h>
#include <stdio.h>

#include "report/engine_mode.h"
#include "report/json_out.h"
#include "structlint/engine.h"

#define U(v) json_integer((json_int_t)(v))

/* A nanosecond figure rounded to 1 decimal. */
static json_t *ns1(double v)
{
	return isfinite(v) ? json_real(round(v * 10.0) / 10.0) : json_null();
}

static void hist_text(FILE *f, const char *what, const struct slt_engine_hist *h)
{
	fprintf(f, "%s (not preempted): %" PRIu64 " holds, mean %.2f us, max %.2f us\n", what, h->holds,
		h->holds ? (double)h->sum_ns / (double)h->holds / 1e3 : 0.0, (double)h->max_ns / 1e3);
	fprintf(f, "  preempted while held: %" PRIu64 " holds, max %.2f us (not in the buckets)\n",
		h->preempted, (double)h->preempted_max_ns / 1e3);
	fprintf(f, "  %-8s %12s %7s\n", "us", "holds", "%");
	for (unsigned i = 0; i < SLT_ENGINE_HIST_BUCKETS; i++)
		fprintf(f, "  %-8s %12" PRIu64 " %6.2f%%\n", slt_engine_hist_label(i), h->count[i],
			h->holds ? 100.0 * (double)h->count[i] / (double)h->holds : 0.0);
}

void slt_engine_mode_text(FILE *f, const char *indent, enum slt_stats_mode m,
			  const struct slt_engine_counters *c, bool spin,
			  const struct slt_engine_opts *o)
{
	const char *why = o ? o->stats_mode_why : NULL;
	fprintf(f, "%sstats mode: %s%s%s%s; %u node + %u memcg + %u event counters per flushed (group, CPU) (%s)\n",
		indent, slt_stats_mode_name(m), why ? " (" : "", why ? why : "", why ? ")" : "",
		c->node_items, c->memcg_items, c->event_items,
		c->from_file ? "from the FILE's lruvec_stats_percpu / memcg_vmstats_percpu" :
		"defaults: the FILE has no lruvec_stats_percpu / memcg_vmstats_percpu");
	fprintf(f, "%slocks: %s\n", indent, !spin ?
		"sleeping mutexes (more threads than CPUs: a spinner would wait out a preempted holder's time slice)" :
		m == SLT_STATS_5_15 ?
		"spinning (the updaters and the flush worker fit the CPUs, one each: holds run on, as under the kernel's IRQ-off spinlocks)" :
		"spinning (the updaters fit the CPUs, one each: holds run on, as under the kernel's IRQ-off spinlocks)");
}

json_t *slt_engine_mode_json(enum slt_stats_mode m,
			     const struct slt_engine_counters *c, bool spin,
			     const struct slt_engine_opts *o, bool *bad)
{
	json_t *j = json_object();
	slt_json_set(j, "mode", json_string(slt_stats_mode_name(m)), bad);
	slt_json_set(j, "why", o && o->stats_mode_why ? json_string(o->stats_mode_why) : json_null(), bad);
	slt_json_set(j, "counters", json_pack("{s:I,s:I,s:I,s:b}", "node_items", (json_int_t)c->node_items,
					      "memcg_items", (json_int_t)c->memcg_items,
					      "event_items", (json_int_t)c->event_items,
					      "from_file", (int)c->from_file), bad);
	slt_json_set(j, "locks", json_string(spin ? "spin" : "mutex"), bad);
	slt_json_set(j, "read_every", m == SLT_STATS_5_15 || !o ? json_null() :
		     U(o->read_every ? o->read_every : o->batch), bad);
	slt_json_set(j, "period_ms", U(o && o->period_ms ? o->period_ms : 2000), bad);
	return j;
}

int slt_engine_write_text(FILE *f, const struct slt_engine_result *r,
			  const struct slt_engine_bound *b,
			  const struct slt_engine_opts *o)
{
	bool stats = r->mode == SLT_ENGINE_STATS;
	if (b)
		fprintf(f, "engine: struct %s (%" PRIu64 " byte%s), %s mode, %u-byte cachelines\n",
			b->struct_name, b->object_size, b->object_size == 1 ? "" : "s",
			stats ? "stats" : "replay", r->cacheline_size);
	if (o && stats)
		fprintf(f, "options: %u thread%s, batch %u, flush %s, tree depth %u fan-out %u (%zu group%s), hot writes every %u update%s\n",
			r->threads, r->threads == 1 ? "" : "s", o->batch, slt_engine_flush_name(slt_engine_flush_of(o)), o->depth, o->fanout,
			r->n_groups, r->n_groups == 1 ? "" : "s", o->write_every,
			o->write_every == 1 ? "" : "s");
	if (o && stats)
		slt_engine_mode_text(f, "", r->stats_mode, &r->counters, r->spin_locks, o);
	else if (o)
		fprintf(f, "options: %u thread%s, replay on one shared object\n", r->threads,
			r->threads == 1 ? "" : "s");
	if (o && o->max_updates)
		fprintf(f, "run: %" PRIu64 " updates per updater thread (cap %.2f s)\n",
			o->max_updates, o->seconds);
	if (b) {
		fprintf(f, "roles:\n");
		for (size_t k = 0; k < b->n_roles; k++) {
			const struct slt_engine_bound_role *br = &b->roles[k];
			fprintf(f, "  %-24s %-15s offset %6" PRIu64 " size %5" PRIu64 " lines %" PRIu64 "-%" PRIu64 "\n",
				br->member, slt_engine_role_name(br->role), br->offset, br->size,
				br->first_line, br->last_line);
		}
	}
	fprintf(f, "\n%-10s %6s %14s %14s %8s %8s\n", "thread", "cpu", "ops", "ops/s", "cpu s", "ran s");
	for (unsigned i = 0; i < r->threads; i++) {
		char cpu[16] = "-";
		if (r->thread[i].cpu >= 0)
			snprintf(cpu, sizeof(cpu), "%d", r->thread[i].cpu);
		fprintf(f, "%-10u %6s %14" PRIu64 " %14.0f %8.3f %8.3f\n", i, cpu,
			r->thread[i].ops, r->thread[i].ops_per_s, r->thread[i].cpu_seconds,
			r->thread[i].running_seconds);
	}
	fprintf(f, "%-10s %6s %14" PRIu64 " %14.0f   (%.3f s)\n", "total", "", r->ops, r->ops_per_s, r->seconds);
	fprintf(f, "overlap: >= 2 updaters ran at once %.1f%% of the run, all %u %.1f%% (%u distinct CPUs pinned of %u allowed)\n",
		r->overlap * 100.0, r->threads, r->overlap_all * 100.0, r->distinct_cpus, r->allowed_cpus);
	fprintf(f, "\n%s latency (ns, %" PRIu64 " timed at random gaps): p50 %.0f  p90 %.0f  p99 %.0f  p99.9 %.0f\n",
		slt_engine_lat_what(r->mode), r->lat_samples, r->lat_p50_ns, r->lat_p90_ns,
		r->lat_p99_ns, r->lat_p999_ns);
	if (stats) {
		fprintf(f, "  (%" PRIu64 " of the timed updates were batch crossings)\n", r->lat_batch_samples);
		fprintf(f, "flushes: %" PRIu64 " (%" PRIu64 " batch crossings, %" PRIu64 " flusher wake-ups: crossings while a flush is pending coalesce; %" PRIu64 " groups aggregated)\n",
			r->flushes, r->batch_crossings, r->flush_wakeups, r->flushed_groups);
		fprintf(f, "  by: worker %" PRIu64 ", readers %" PRIu64 " (of %" PRIu64 " reader checks), periodic %" PRIu64 ", final 1; %" PRIu64 " trylock%s found a flush running; %" PRIu64 " counters visited\n\n",
			r->worker_flushes, r->reader_flushes, r->reader_checks, r->periodic_flushes,
			r->flush_busy, r->flush_busy == 1 ? "" : "s", r->counters_visited);
		hist_text(f, "flush lock hold time", &r->flush_lock);
		fputc('\n', f);
		hist_text(f, "per-CPU lock hold time", &r->percpu_lock);
		fputc('\n', f);
		hist_text(f, "of them, the update path's (marking the group and its ancestors updated)",
			  &r->percpu_update_lock);
	}
	fflush(f);
	return ferror(f) ? SLT_EIO : 0;
}

static json_t *hist_json(const struct slt_engine_hist *h, bool *bad)
{
	json_t *o = json_object(), *a = json_array();
	slt_json_set(o, "holds", U(h->holds), bad);
	slt_json_set(o, "sum_ns", U(h->sum_ns), bad);
	slt_json_set(o, "max_ns", U(h->max_ns), bad);
	slt_json_set(o, "preempted", U(h->preempted), bad);
	slt_json_set(o, "preempted_sum_ns", U(h->preempted_sum_ns), bad);
	slt_json_set(o, "preempted_max_ns", U(h->preempted_max_ns), bad);
	for (unsigned i = 0; i < SLT_ENGINE_HIST_BUCKETS; i++)
		slt_json_push(a, json_pack("{s:s,s:I}", "range", slt_engine_hist_label(i),
					   "count", (json_int_t)h->count[i]), bad);
	slt_json_set(o, "buckets_us", a, bad);
	return o;
}

int slt_engine_write_json(FILE *f, const struct slt_engine_result *r,
			  const struct slt_engine_bound *b,
			  const struct slt_engine_opts *o, bool pretty,
			  struct slt_error *err)
{
	bool bad = false, stats = r->mode == SLT_ENGINE_STATS;
	json_t *d = json_object();
	slt_json_set(d, "schema", json_string(SLT_SCHEMA_ENGINE), &bad);
	if (b) {
		slt_json_set(d, "struct", json_string(b->struct_name), &bad);
		slt_json_set(d, "size", U(b->object_size), &bad);
	}
	slt_json_set(d, "mode", json_string(stats ? "stats" : "replay"), &bad);
	slt_json_set(d, "cacheline_size", U(r->cacheline_size), &bad);
	if (o) {
		json_t *op = json_object();
		slt_json_set(op, "threads", U(r->threads), &bad);
		slt_json_set(op, "seconds", json_real(o->seconds), &bad);
		slt_json_set(op, "updates", o->max_updates ? U(o->max_updates) : json_null(), &bad);
		/* the stats engine's own options: null in replay mode (they
		 * do not apply; the keys stay, v1) */
		slt_json_set(op, "depth", stats ? U(o->depth) : json_null(), &bad);
		slt_json_set(op, "fanout", stats ? U(o->fanout) : json_null(), &bad);
		slt_json_set(op, "batch", stats ? U(o->batch) : json_null(), &bad);
		slt_json_set(op, "flush", stats ? json_string(slt_engine_flush_name(slt_engine_flush_of(o))) : json_null(), &bad);
		slt_json_set(op, "write_every", stats ? U(o->write_every) : json_null(), &bad);
		slt_json_set(op, "seed", U(o->seed), &bad);
		slt_json_set(op, "pin", json_boolean(o->pin), &bad);
		slt_json_set(op, "realtime", json_boolean(o->realtime), &bad);
		slt_json_set(op, "latency_every", U(o->latency_every), &bad);
		slt_json_set(d, "options", op, &bad);
	}
	if (b) {
		json_t *a = json_array();
		for (size_t k = 0; k < b->n_roles; k++) {
			const struct slt_engine_bound_role *br = &b->roles[k];
			slt_json_push(a, json_pack("{s:s,s:s,s:I,s:I,s:[I,I]}", "member", br->member,
						   "role", slt_engine_role_name(br->role),
						   "offset", (json_int_t)br->offset, "size", (json_int_t)br->size,
						   "lines", (json_int_t)br->first_line, (json_int_t)br->last_line), &bad);
		}
		slt_json_set(d, "roles", a, &bad);
	}
	slt_json_set(d, "seconds", json_real(r->seconds), &bad);
	slt_json_set(d, "ops", U(r->ops), &bad);
	slt_json_set(d, "ops_per_s", json_real(r->ops_per_s), &bad);
	json_t *th = json_array();
	for (unsigned i = 0; i < r->threads; i++)
		slt_json_push(th, json_pack("{s:i,s:o,s:I,s:f,s:f,s:f}", "thread", (int)i,
					    "cpu", r->thread[i].cpu >= 0 ? json_integer(r->thread[i].cpu) : json_null(),
					    "ops", (json_int_t)r->thread[i].ops,
					    "ops_per_s", r->thread[i].ops_per_s,
					    "cpu_seconds", r->thread[i].cpu_seconds,
					    "running_seconds", r->thread[i].running_seconds), &bad);
	slt_json_set(d, "threads", th, &bad);
	slt_json_set(d, "overlap", json_real(r->overlap), &bad);
	slt_json_set(d, "overlap_all", json_real(r->overlap_all), &bad);
	slt_json_set(d, "allowed_cpus", U(r->allowed_cpus), &bad);
	slt_json_set(d, "distinct_cpus", U(r->distinct_cpus), &bad);
	slt_json_set(d, "latency_ns", json_pack("{s:s,s:I,s:I,s:o,s:o,s:o,s:o}",
						 "what", slt_engine_lat_what(r->mode),
						 "timed", (json_int_t)r->lat_samples,
						 "timed_batch_crossings", (json_int_t)r->lat_batch_samples,
						 "p50", ns1(r->lat_p50_ns), "p90", ns1(r->lat_p90_ns),
						 "p99", ns1(r->lat_p99_ns), "p99_9", ns1(r->lat_p999_ns)), &bad);
	slt_json_set(d, "flushes", U(r->flushes), &bad);
	slt_json_set(d, "batch_crossings", U(r->batch_crossings), &bad);
	slt_json_set(d, "flush_wakeups", U(r->flush_wakeups), &bad);
	slt_json_set(d, "flushed_groups", U(r->flushed_groups), &bad);
	if (stats) {
		json_t *m = slt_engine_mode_json(r->stats_mode, &r->counters, r->spin_locks, o, &bad);
		slt_json_set(m, "worker_flushes", U(r->worker_flushes), &bad);
		slt_json_set(m, "reader_flushes", U(r->reader_flushes), &bad);
		slt_json_set(m, "reader_checks", U(r->reader_checks), &bad);
		slt_json_set(m, "periodic_flushes", U(r->periodic_flushes), &bad);
		slt_json_set(m, "flush_busy", U(r->flush_busy), &bad);
		slt_json_set(m, "counters_visited", U(r->counters_visited), &bad);
		slt_json_set(d, "stats", m, &bad);
	}
	slt_json_set(d, "flush_lock", hist_json(&r->flush_lock, &bad), &bad);
	slt_json_set(d, "percpu_lock", hist_json(&r->percpu_lock, &bad), &bad);
	slt_json_set(d, "percpu_update_lock", hist_json(&r->percpu_update_lock, &bad), &bad);
	slt_json_set(d, "groups", U(r->n_groups), &bad);
	if (r->access && b && r->n_roles == b->n_roles) {
		json_t *a = json_array();
		for (unsigned t = 0; t < r->n_access_threads; t++)
			for (size_t k = 0; k < b->n_roles; k++) {
				const struct slt_engine_access *x = &r->access[(size_t)t * b->n_roles + k];
				slt_json_push(a, json_pack("{s:i,s:s,s:I,s:I}", "thread", (int)t,
							   "member", b->roles[k].member,
							   "loads", (json_int_t)x->loads,
							   "stores", (json_int_t)x->stores), &bad);
			}
		slt_json_set(d, "accesses", a, &bad);
	}
	return slt_json_write(f, d, bad, pretty, "the engine report", err);
}
