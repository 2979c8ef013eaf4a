/* SPDX-License-Identifier: MIT */
/*
 * Writer of the JSON access profile "structlint.profile/v1" (format:
 * src/samples/profile.c).  Records with a type name and a member or offset
 * go to "structs" (consecutive records of the same struct and member/offset
 * become the rows of one entry, with the totals written next to them);
 * every other record goes to "samples".  Reading the output back gives the
 * same records in the same order, except that strings that are not valid
 * UTF-8 are written with each invalid byte replaced by '?'.
 */
#include "structlint/profile.h"

#include <errno.h>
#include <inttypes.h>
#include <jansson.h>
#include <stdlib.h>
#include <string.h>

#define MAX_STRING 65536          /* the reader's limit */

struct slt_profile_writer {
	FILE *f;
	char *name;
	bool pretty;
	json_t *root, *structs, *samples;
	json_t *group;            /* current structs entry, borrowed */
	char *group_type;         /* its type, owned */
	json_t *entry;            /* current members entry, borrowed */
	json_t *rows;             /* its rows, borrowed */
	uint32_t entry_flags;     /* SLT_SAMPLE_TYPE | SLT_SAMPLE_MEMBER */
	uint64_t entry_offset;
	char *entry_member;       /* owned */
	uint64_t tot[7];
	bool tot_overflow;
	struct slt_error err;     /* first add() error */
};

static const char *const count_keys[7] = {
	"loads", "stores", "hitm_local", "hitm_remote", "peer_local",
	"peer_remote", "cycles",
};

static void counts_of(const struct slt_sample *s, uint64_t c[7])
{
	c[0] = s->loads;
	c[1] = s->stores;
	c[2] = s->hitm_local;
	c[3] = s->hitm_remote;
	c[4] = s->peer_local;
	c[5] = s->peer_remote;
	c[6] = s->cycles;
}

static int nomem(struct slt_profile_writer *w)
{
	return slt_error_set(&w->err, SLT_ENOMEM, w->name, -1, NULL,
			     "out of memory building the profile");
}

/* json_object_set_new that reports failure (v may be NULL: no memory). */
static int put(struct slt_profile_writer *w, json_t *obj, const char *key,
	       json_t *v)
{
	if (!v || json_object_set_new(obj, key, v) != 0)
		return nomem(w);
	return 0;
}

static int put_u64(struct slt_profile_writer *w, json_t *obj,
		   const char *key, uint64_t x)
{
	if (x <= (uint64_t)INT64_MAX)
		return put(w, obj, key, json_integer((json_int_t)x));
	char b[24];
	snprintf(b, sizeof(b), "%" PRIu64, x);
	return put(w, obj, key, json_string(b));
}

static int put_hex(struct slt_profile_writer *w, json_t *obj,
		   const char *key, uint64_t x)
{
	char b[24];
	snprintf(b, sizeof(b), "0x%" PRIx64, x);
	return put(w, obj, key, json_string(b));
}

/* A string value; bytes that are not valid UTF-8 become '?'. */
static int put_str(struct slt_profile_writer *w, json_t *obj,
		   const char *key, const char *s)
{
	size_t len = strlen(s);
	if (len > MAX_STRING)
		return slt_error_set(&w->err, SLT_EUSAGE, w->name, -1,
				     "the profile format limits strings to 64 KiB",
				     "%s string of %zu bytes is too long",
				     key, len);
	json_t *v = json_stringn(s, len);
	if (v)
		return put(w, obj, key, v);
	char *copy = malloc(len + 1);
	if (!copy)
		return nomem(w);
	/* Keep well-formed UTF-8 sequences (RFC 3629 lead/continuation
	 * bytes; jansson rejects overlongs and surrogates the same way, so
	 * check again after), replace everything else. */
	size_t i = 0;
	while (i < len) {
		unsigned char c = (unsigned char)s[i];
		size_t n = c < 0x80 ? 1 : (c >> 5) == 6 ? 2 : (c >> 4) == 14 ? 3 :
			   (c >> 3) == 30 ? 4 : 0;
		bool ok = n > 0 && i + n <= len;
		for (size_t k = 1; ok && k < n; k++)
			ok = ((unsigned char)s[i + k] & 0xc0) == 0x80;
		if (ok) {
			memcpy(copy + i, s + i, n);
			i += n;
		} else {
			copy[i++] = '?';
		}
	}
	copy[len] = '\0';
	v = json_stringn(copy, len);
	if (!v) {   /* overlong or surrogate sequences: plain ASCII then */
		for (i = 0; i < len; i++)
			if ((unsigned char)copy[i] >= 0x80)
				copy[i] = '?';
		v = json_stringn(copy, len);
	}
	free(copy);
	return put(w, obj, key, v);
}

/* The fields of s that are not the struct/member/offset key, as a row. */
static int put_row(struct slt_profile_writer *w, json_t *r,
		   const struct slt_sample *s)
{
	int rc = 0;
	uint32_t fl = s->flags;
	if (!rc && (fl & SLT_SAMPLE_CPU))
		rc = put(w, r, "cpu", json_integer(s->cpu));
	if (!rc && s->node != -1)
		rc = put(w, r, "node", json_integer(s->node));
	if (!rc && (fl & SLT_SAMPLE_TID)) {
		rc = put(w, r, "pid", json_integer(s->pid));
		if (!rc)
			rc = put(w, r, "tid", json_integer(s->tid));
	}
	if (!rc && (fl & SLT_SAMPLE_ADDR))
		rc = put_hex(w, r, "addr", s->addr);
	if (!rc && (fl & SLT_SAMPLE_PHYS))
		rc = put_hex(w, r, "phys_addr", s->phys_addr);
	if (!rc && (fl & SLT_SAMPLE_LINE)) {
		rc = put_hex(w, r, "line_addr", s->line_addr);
		if (!rc)
			rc = put_u64(w, r, "line_offset", s->line_offset);
	}
	if (!rc && (fl & SLT_SAMPLE_CPUS)) {
		json_t *a = json_array();
		rc = put(w, r, "cpus", a);
		for (size_t i = 0; !rc && i < s->n_cpus; i++)
			if (json_array_append_new(a, json_integer(s->cpus[i])))
				rc = nomem(w);
	}
	if (!rc && (fl & SLT_SAMPLE_IP))
		rc = put_hex(w, r, "ip", s->ip);
	if (!rc && s->symbol)
		rc = put_str(w, r, "symbol", s->symbol);
	if (!rc && s->source)
		rc = put_str(w, r, "source", s->source);
	if (!rc && s->event)
		rc = put_str(w, r, "event", s->event);
	if (!rc && s->object)
		rc = put_str(w, r, "object", s->object);
	if (!rc && s->cpu_count)
		rc = put(w, r, "cpu_count", json_integer(s->cpu_count));
	if (!rc && (fl & SLT_SAMPLE_DATA_SRC))
		rc = put_hex(w, r, "data_src", s->data_src);
	if (!rc && s->access_size)
		rc = put_u64(w, r, "size", s->access_size);
	/* a row with a data_src states every count, zeros too: a reader
	 * decodes data_src only for what a row leaves unsaid, so an omitted
	 * zero would be read back as the access data_src names */
	uint64_t c[7];
	counts_of(s, c);
	for (int k = 0; k < 7 && !rc; k++)
		if (c[k] || (fl & SLT_SAMPLE_DATA_SRC))
			rc = put_u64(w, r, count_keys[k], c[k]);
	return rc;
}

/* Write the totals of the current entry; a single row with nothing but
 * counts is folded into the entry. */
static int close_entry(struct slt_profile_writer *w)
{
	int rc = 0;
	if (!w->entry)
		return 0;
	if (json_array_size(w->rows) == 1) {
		json_t *r = json_array_get(w->rows, 0);
		bool only_counts = true;
		const char *key;
		json_t *v;
		json_object_foreach(r, key, v) {
			bool is_count = false;
			for (int k = 0; k < 7; k++)
				is_count |= strcmp(key, count_keys[k]) == 0;
			only_counts &= is_count;
		}
		if (only_counts) {
			json_object_del(w->entry, "rows");
			w->rows = NULL;
		}
	}
	if (!w->tot_overflow)
		for (int k = 0; k < 7 && !rc; k++)
			if (w->tot[k])
				rc = put_u64(w, w->entry, count_keys[k], w->tot[k]);
	w->entry = NULL;
	w->rows = NULL;
	free(w->entry_member);
	w->entry_member = NULL;
	return rc;
}

static bool same_entry(const struct slt_profile_writer *w,
		       const struct slt_sample *s, uint32_t key_flags)
{
	if (!w->entry || strcmp(w->group_type, s->type_name) != 0 ||
	    w->entry_flags != key_flags)
		return false;
	if ((key_flags & SLT_SAMPLE_TYPE) && w->entry_offset != s->type_offset)
		return false;
	if ((key_flags & SLT_SAMPLE_MEMBER) &&
	    strcmp(w->entry_member, s->member) != 0)
		return false;
	return true;
}

static int add_struct_record(struct slt_profile_writer *w,
			     const struct slt_sample *s, uint32_t key_flags)
{
	int rc;
	if (!same_entry(w, s, key_flags)) {
		if ((rc = close_entry(w)) != 0)
			return rc;
		if (!w->group || strcmp(w->group_type, s->type_name) != 0) {
			json_t *g = json_object();
			if (!g || json_array_append_new(w->structs, g))
				return nomem(w);
			if ((rc = put_str(w, g, "type", s->type_name)) != 0 ||
			    (rc = put(w, g, "members", json_array())) != 0)
				return rc;
			free(w->group_type);
			w->group_type = strdup(s->type_name);
			if (!w->group_type)
				return nomem(w);
			w->group = g;
		}
		json_t *e = json_object();
		if (!e || json_array_append_new(json_object_get(w->group,
								"members"), e))
			return nomem(w);
		w->entry = e;
		w->entry_flags = key_flags;
		w->entry_offset = s->type_offset;
		memset(w->tot, 0, sizeof(w->tot));
		w->tot_overflow = false;
		if (key_flags & SLT_SAMPLE_MEMBER) {
			w->entry_member = strdup(s->member);
			if (!w->entry_member)
				return nomem(w);
			if ((rc = put_str(w, e, "member", s->member)) != 0)
				return rc;
		}
		if ((key_flags & SLT_SAMPLE_TYPE) &&
		    (rc = put_u64(w, e, "offset", s->type_offset)) != 0)
			return rc;
		w->rows = json_array();
		if ((rc = put(w, e, "rows", w->rows)) != 0)
			return rc;
	}
	json_t *r = json_object();
	if (!r || json_array_append_new(w->rows, r))
		return nomem(w);
	uint64_t c[7];
	counts_of(s, c);
	for (int k = 0; k < 7; k++) {
		if (w->tot[k] + c[k] < w->tot[k])
			w->tot_overflow = true;
		w->tot[k] += c[k];
	}
	return put_row(w, r, s);
}

int slt_profile_writer_add(void *writer, const struct slt_sample *s)
{
	struct slt_profile_writer *w = writer;
	if (w->err.code)
		return w->err.code;
	if ((s->flags & SLT_SAMPLE_MEMBER) && !s->member)
		return slt_error_set(&w->err, SLT_EUSAGE, w->name, -1, NULL,
				     "record flagged SLT_SAMPLE_MEMBER without "
				     "a member");
	uint32_t key_flags = s->flags & (SLT_SAMPLE_TYPE | SLT_SAMPLE_MEMBER);
	if (key_flags && s->type_name && s->type_name[0] &&
	    (!(key_flags & SLT_SAMPLE_MEMBER) || s->member[0]))
		return add_struct_record(w, s, key_flags);

	int rc = close_entry(w);
	json_t *r = json_object();
	if (rc == 0 && (!r || json_array_append_new(w->samples, r)))
		return nomem(w);
	if (rc == 0 && s->type_name)
		rc = put_str(w, r, "type", s->type_name);
	if (rc == 0 && (s->flags & SLT_SAMPLE_TYPE))
		rc = put_u64(w, r, "offset", s->type_offset);
	if (rc == 0 && (s->flags & SLT_SAMPLE_MEMBER))
		rc = put_str(w, r, "member", s->member);
	if (rc == 0)
		rc = put_row(w, r, s);
	/* A later record of the same struct starts a new group: order is
	 * kept, so the reader delivers the records as they came. */
	w->group = NULL;
	return rc;
}

int slt_profile_writer_new(FILE *f, const char *name,
			   const struct slt_profile_writer_opts *opts,
			   struct slt_profile_writer **out,
			   struct slt_error *err)
{
	*out = NULL;
	struct slt_profile_writer *w = calloc(1, sizeof(*w));
	if (!w)
		return slt_error_set(err, SLT_ENOMEM, name, -1, NULL,
				     "out of memory");
	slt_error_clear(&w->err);
	w->f = f;
	w->name = strdup(name ? name : "<profile>");
	w->pretty = opts && opts->pretty;
	w->root = json_object();
	w->structs = json_array();
	w->samples = json_array();
	int rc = (!w->name || !w->root || !w->structs || !w->samples) ?
		 SLT_ENOMEM : 0;
	if (!rc)
		rc = put(w, w->root, "schema", json_string(SLT_PROFILE_SCHEMA));
	if (!rc && opts && opts->tool)
		rc = put_str(w, w->root, "tool", opts->tool);
	if (!rc && opts && opts->cacheline_size)
		rc = put(w, w->root, "cacheline_size",
			 json_integer(opts->cacheline_size));
	if (rc) {
		json_decref(w->structs);
		json_decref(w->samples);
		w->structs = w->samples = NULL;
		slt_profile_writer_free(w);
		return slt_error_set(err, SLT_ENOMEM, name, -1, NULL,
				     "out of memory");
	}
	*out = w;
	return 0;
}

int slt_profile_writer_finish(struct slt_profile_writer *w,
			      struct slt_error *err)
{
	int rc = w->err.code ? w->err.code : close_entry(w);
	if (!rc && json_array_size(w->structs) &&
	    json_object_set(w->root, "structs", w->structs))
		rc = nomem(w);
	if (!rc && json_array_size(w->samples) &&
	    json_object_set(w->root, "samples", w->samples))
		rc = nomem(w);
	if (rc) {
		if (err && err->code == 0)
			*err = w->err;
		slt_profile_writer_free(w);
		return rc;
	}
	size_t flags = JSON_PRESERVE_ORDER |
		       (w->pretty ? JSON_INDENT(2) : JSON_COMPACT);
	if (json_dumpf(w->root, w->f, flags) != 0 || fputc('\n', w->f) == EOF ||
	    fflush(w->f) != 0)
		rc = slt_error_set(err, SLT_EIO, w->name, -1,
				   "check the disk space and the path",
				   "cannot write the profile: %s",
				   strerror(errno));
	slt_profile_writer_free(w);
	return rc;
}

void slt_profile_writer_free(struct slt_profile_writer *w)
{
	if (!w)
		return;
	json_decref(w->root);
	json_decref(w->structs);
	json_decref(w->samples);
	free(w->group_type);
	free(w->entry_member);
	free(w->name);
	free(w);
}
