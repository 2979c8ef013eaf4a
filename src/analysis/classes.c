/* SPDX-License-Identifier: MIT */
/*
 * Member classes without samples: the hand-written classes file and the
 * kernel's net_cachelines tables.  Formats and the access-value rule are
 * documented in include/structlint/classes.h.  The net_cachelines shapes
 * follow the kernel's Documentation/networking/net_cachelines/NAME.rst as of
 * Linux 6.8/6.9 (whitespace table) and 6.10+ (RST simple table).
 */
#include "structlint/classes.h"

#include <ctype.h>
#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/classes_index.h"
#include "common/arena.h"
#include "common/strdist.h"

#define MAX_LINE 8192
#define MAX_COLS 8

static const char *const class_names[] = {
	"none", "read-mostly", "hot-write", "mixed", "cold", "true-shared",
};

const char *slt_class_name(enum slt_class c)
{
	if ((unsigned)c >= sizeof(class_names) / sizeof(class_names[0]))
		return "none";
	return class_names[c];
}

int slt_class_parse(const char *name)
{
	char b[32];
	size_t n = strlen(name);
	if (n == 0 || n >= sizeof(b))
		return -1;
	for (size_t i = 0; i <= n; i++)
		b[i] = name[i] == '_' ? '-' : (char)tolower((unsigned char)name[i]);
	for (size_t i = 1; i < sizeof(class_names) / sizeof(class_names[0]); i++)
		if (strcmp(b, class_names[i]) == 0)
			return (int)i;
	return -1;
}

/* ---- building the result --------------------------------------------- */

struct builder {
	struct slt_classes *c;
	struct slt_arena *arena;
	const char *name;      /* input name for messages */
	struct slt_error *err;
};

static int nomem(struct builder *b)
{
	return slt_error_set(b->err, SLT_ENOMEM, b->name, -1, NULL,
			     "out of memory");
}

static struct slt_class_entry *add_entry(struct builder *b)
{
	struct slt_classes *c = b->c;
	if (slt_classes_reserve(c))
		return NULL;
	struct slt_class_entry *e = &c->entries[c->n++];
	memset(e, 0, sizeof(*e));
	e->file = b->name;
	return e;
}

/* "struct foo" / "union foo" / "foo" -> "foo" (a pointer into s). */
static const char *bare_tag(const char *s)
{
	while (*s == ' ' || *s == '\t')
		s++;
	if (strncmp(s, "struct ", 7) == 0)
		s += 7;
	else if (strncmp(s, "union ", 6) == 0)
		s += 6;
	while (*s == ' ' || *s == '\t')
		s++;
	return s;
}

/* Member path m (len bytes) with array indices removed, into out (len + 1
 * bytes): "a[2].b" -> "a.b". */
static void strip_indices(char *out, const char *m, size_t len)
{
	size_t o = 0;
	for (size_t i = 0; i < len; i++) {
		if (m[i] == '[') {
			while (i < len && m[i] != ']')
				i++;
			continue;
		}
		out[o++] = m[i];
	}
	out[o] = '\0';
}

static char *norm_member(struct slt_arena *a, const char *m, size_t len)
{
	char *out = slt_arena_alloc(a, len + 1);
	if (out)
		strip_indices(out, m, len);
	return out;
}

static bool is_ident_char(char ch)
{
	return isalnum((unsigned char)ch) || ch == '_';
}

/* A member path: identifiers joined by '.', each with optional [N]. */
static bool valid_member(const char *m)
{
	bool need_ident = true;
	for (const char *p = m; *p; p++) {
		if (is_ident_char(*p)) {
			need_ident = false;
		} else if (*p == '.' && !need_ident) {
			need_ident = true;
		} else if (*p == '[' && !need_ident) {
			p++;
			while (isdigit((unsigned char)*p))
				p++;
			if (*p != ']')
				return false;
		} else {
			return false;
		}
	}
	return !need_ident;
}

/* ---- lines ------------------------------------------------------------- */

struct lines {
	const char *p;
	size_t n, pos;
	unsigned lineno;
};

/* Next line into buf (NUL-terminated, no newline, no trailing '\r').
 * Returns 1, 0 at the end, or a negative error. */
static int next_line(struct lines *ls, char *buf, struct builder *b)
{
	if (ls->pos >= ls->n)
		return 0;
	const char *s = ls->p + ls->pos;
	const char *nl = memchr(s, '\n', ls->n - ls->pos);
	size_t len = nl ? (size_t)(nl - s) : ls->n - ls->pos;
	ls->pos += len + (nl ? 1 : 0);
	ls->lineno++;
	if (len && s[len - 1] == '\r')
		len--;
	if (len >= MAX_LINE)
		return slt_error_set_line(b->err, SLT_ECORRUPT, b->name,
					  ls->lineno, NULL,
					  "line is over %d bytes", MAX_LINE);
	if (memchr(s, '\0', len))
		return slt_error_set_line(b->err, SLT_ECORRUPT, b->name,
					  ls->lineno, "a classes input is text",
					  "NUL byte in the line");
	memcpy(buf, s, len);
	buf[len] = '\0';
	return 1;
}

static char *trim(char *s)
{
	while (*s == ' ' || *s == '\t')
		s++;
	size_t n = strlen(s);
	while (n && (s[n - 1] == ' ' || s[n - 1] == '\t'))
		s[--n] = '\0';
	return s;
}

/* ---- the classes file --------------------------------------------------- */

static int bad_class(struct builder *b, unsigned line, const char *word)
{
	char hint[160];
	const char *best = NULL;
	unsigned bd = 4;
	for (size_t i = 1; i < sizeof(class_names) / sizeof(class_names[0]); i++) {
		unsigned d = slt_strdist(word, class_names[i], 3);
		if (d < bd) {
			bd = d;
			best = class_names[i];
		}
	}
	if (best)
		snprintf(hint, sizeof(hint), "did you mean %s?", best);
	else
		snprintf(hint, sizeof(hint), "classes: read-mostly, hot-write, "
			 "mixed, cold, true-shared");
	return slt_error_set_line(b->err, SLT_ECORRUPT, b->name, line, hint,
				  "unknown class \"%.60s\"", word);
}

static int parse_classes_file(struct builder *b, struct lines *ls)
{
	static const char usage[] = "write STRUCT.MEMBER CLASS, or [STRUCT] "
				    "then MEMBER = CLASS lines";
	char buf[MAX_LINE];
	const char *section = NULL;
	int rc;
	while ((rc = next_line(ls, buf, b)) == 1) {
		char *hash = strchr(buf, '#');
		if (hash)
			*hash = '\0';
		char *s = trim(buf);
		if (!*s)
			continue;
		unsigned line = ls->lineno;
		if (*s == '[') {
			char *end = strchr(s, ']');
			if (!end || *trim(end + 1))
				return slt_error_set_line(b->err, SLT_ECORRUPT,
					b->name, line, usage,
					"section header without a closing ']'");
			*end = '\0';
			const char *tag = bare_tag(trim(s + 1));
			if (!*tag || !valid_member(tag) || strchr(tag, '.'))
				return slt_error_set_line(b->err, SLT_ECORRUPT,
					b->name, line, usage,
					"\"%.80s\" is not a struct name", tag);
			if (!(section = slt_arena_strdup(b->arena, tag)))
				return nomem(b);
			continue;
		}
		/* KEY [=] CLASS, KEY may be preceded by struct/union. */
		char *key = s;
		if (strncmp(key, "struct ", 7) == 0 ||
		    strncmp(key, "union ", 6) == 0)
			key = trim(strchr(key, ' '));
		size_t kl = strcspn(key, " \t=");
		char *rest = key + kl;
		char saved = *rest;
		*rest = '\0';
		if (saved)
			rest++;
		if (saved != '=') {
			rest = trim(rest);
			if (*rest == '=')
				rest++;
		}
		char *cls = trim(rest);
		if (!*key || !*cls || strpbrk(cls, " \t="))
			return slt_error_set_line(b->err, SLT_ECORRUPT, b->name,
						  line, usage,
						  "expected MEMBER CLASS");
		/* CLASS:LABEL names who writes (hot-write:rx) */
		char *label = strchr(cls, ':');
		if (label)
			*label++ = '\0';
		int cv = slt_class_parse(cls);
		if (cv < 0)
			return bad_class(b, line, cls);
		if (label && (!*label || label[strspn(label, "abcdefghijklmnopqrstuvwxyz"
			"ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_-")] ||
			      (cv != SLT_CLASS_HOT_WRITE && cv != SLT_CLASS_MIXED &&
			       cv != SLT_CLASS_TRUE_SHARED)))
			return slt_error_set_line(b->err, SLT_ECORRUPT, b->name, line,
				"a writer label follows a written class: hot-write:LABEL, mixed:LABEL or true-shared:LABEL, LABEL of letters, digits, '_' and '-'",
				"bad writer label in \"%.40s:%.40s\"", cls, label);
		const char *st = section, *member = key;
		if (!st) {
			char *dot = strchr(key, '.');
			if (!dot)
				return slt_error_set_line(b->err, SLT_ECORRUPT,
					b->name, line, usage,
					"\"%.80s\" names no struct (outside a "
					"[STRUCT] section write STRUCT.MEMBER)",
					key);
			*dot = '\0';
			if (!valid_member(key) || strchr(key, '['))
				return slt_error_set_line(b->err, SLT_ECORRUPT,
					b->name, line, usage,
					"\"%.80s\" is not a struct name", key);
			if (!(st = slt_arena_strdup(b->arena, key)))
				return nomem(b);
			member = dot + 1;
		}
		if (!valid_member(member))
			return slt_error_set_line(b->err, SLT_ECORRUPT, b->name,
				line, "a member path is NAME, NAME.NAME or NAME[N]",
				"\"%.80s\" is not a member path", member);
		char *m = norm_member(b->arena, member, strlen(member));
		if (!m)
			return nomem(b);
		size_t have;
		int found = slt_classes_index_find(b->c, st, m, &have);
		if (found < 0)
			return nomem(b);
		if (found)
			return slt_error_set_line(b->err, SLT_ECORRUPT,
				b->name, line, "give each member once",
				"%s.%s already has a class (line %u)",
				st, m, b->c->entries[have].line);
		struct slt_class_entry *e = add_entry(b);
		if (!e)
			return nomem(b);
		e->struct_name = st;
		e->member = m;
		e->cls = (enum slt_class)cv;
		e->line = line;
		if (label && !(e->writer = slt_arena_strdup(b->arena, label)))
			return nomem(b);
	}
	return rc;
}

/* ---- net_cachelines tables --------------------------------------------- */

/* A rule line: only '=' runs and spaces, at least one run. */
static bool is_rule(const char *s)
{
	bool any = false;
	for (; *s; s++) {
		if (*s == '=')
			any = true;
		else if (*s != ' ' && *s != '\t')
			return false;
	}
	return any;
}

/* Column starts of a rule line; returns the count. */
static size_t rule_cols(const char *s, size_t *start, size_t max)
{
	size_t n = 0;
	for (size_t i = 0; s[i]; i++)
		if (s[i] == '=' && (i == 0 || s[i - 1] != '=') && n < max)
			start[n++] = i;
	return n;
}

/* Maps one access cell to a per-path class; -1 for an unknown value. */
static int access_class(const char *v)
{
	char b[32];
	size_t n = strlen(v);
	if (n == 0 || strcmp(v, "-") == 0)
		return SLT_CLASS_COLD;
	if (n >= sizeof(b))
		return -1;
	for (size_t i = 0; i <= n; i++)
		b[i] = v[i] == '-' ? '_' : (char)tolower((unsigned char)v[i]);
	if (strcmp(b, "n/a") == 0)
		return SLT_CLASS_COLD;
	if (strcmp(b, "read_mostly") == 0)
		return SLT_CLASS_READ_MOSTLY;
	if (strcmp(b, "read_write") == 0 || strcmp(b, "write_mostly") == 0)
		return SLT_CLASS_HOT_WRITE;
	return -1;
}

static enum slt_class combine(enum slt_class tx, enum slt_class rx)
{
	if (tx == SLT_CLASS_HOT_WRITE || rx == SLT_CLASS_HOT_WRITE)
		return SLT_CLASS_HOT_WRITE;
	if (tx == SLT_CLASS_READ_MOSTLY || rx == SLT_CLASS_READ_MOSTLY)
		return SLT_CLASS_READ_MOSTLY;
	return SLT_CLASS_COLD;
}

/* Store one row: cells type, name, tx, rx, comment (trimmed). */
static int add_row(struct builder *b, unsigned line, const char *st,
		   char *type, char *name, char *tx, char *rx, char *comment)
{
	static const char hint[] = "access values: read_mostly, read_write, "
				   "write_mostly, '-' or empty";
	if (strncmp(name, "..", 2) == 0 || strncmp(type, "..", 2) == 0)
		return 0;     /* the "..struct ..NAME" marker row */
	int t = access_class(tx), r = access_class(rx);
	if (t < 0 || r < 0)
		return slt_error_set_line(b->err, SLT_ECORRUPT, b->name, line,
					  hint, "unknown access value \"%.40s\"",
					  t < 0 ? tx : rx);
	size_t nl = strcspn(name, "[");
	if (nl == 0 || !valid_member(name))
		return slt_error_set_line(b->err, SLT_ECORRUPT, b->name, line,
					  "the Name column holds a member name",
					  "\"%.60s\" is not a member name", name);
	struct slt_class_entry *e = add_entry(b);
	if (!e)
		return nomem(b);
	e->struct_name = st;
	e->member = norm_member(b->arena, name, strlen(name));
	e->type = slt_arena_strdup(b->arena, type);
	e->comment = *comment ? slt_arena_strdup(b->arena, comment) : NULL;
	if (!e->member || !e->type || (*comment && !e->comment))
		return nomem(b);
	e->tx = (enum slt_class)t;
	e->rx = (enum slt_class)r;
	e->cls = combine(e->tx, e->rx);
	e->line = line;
	return 0;
}

/* Cell i of an RST row: from col[i] to col[i+1] (last: to the end). */
static char *rst_cell(char *row, size_t len, const size_t *col, size_t ncol,
		      size_t i, char *out, size_t outsz)
{
	size_t s = col[i] < len ? col[i] : len;
	size_t e = i + 1 < ncol ? (col[i + 1] < len ? col[i + 1] : len) : len;
	size_t n = e - s < outsz - 1 ? e - s : outsz - 1;
	memcpy(out, row + s, n);
	out[n] = '\0';
	return trim(out);
}

/* Whitespace-separated token at or after i: start index, or len at end. */
static size_t tok_start(const char *s, size_t i)
{
	while (s[i] == ' ' || s[i] == '\t')
		i++;
	return i;
}

static size_t tok_end(const char *s, size_t i)
{
	while (s[i] && s[i] != ' ' && s[i] != '\t')
		i++;
	return i;
}

/* A word a writer meant as an access value (a typo of one): the early
 * table has no column rules, so anything else starts the comment. */
static bool near_access_word(const char *w)
{
	static const char *const words[] = { "read_mostly", "read_write",
					     "write_mostly" };
	for (size_t i = 0; i < 3; i++)
		if (slt_strdist(w, words[i], 2) <= 2)
			return true;
	return false;
}

static int parse_early_row(struct builder *b, unsigned line, const char *st,
			   char *row, size_t tx_col, size_t rx_col)
{
	char *cell[4] = { "", "", "", "" };   /* type name tx rx */
	char *comment = "";
	size_t i = tok_start(row, 0);
	for (int k = 0; k < 2 && row[i]; k++) {
		size_t e = tok_end(row, i);
		cell[k] = row + i;
		i = tok_start(row, e);
		row[e] = '\0';
		if (e == i)   /* the token ended the line */
			break;
	}
	bool tx_done = false, rx_done = false;
	while (row[i]) {
		size_t e = tok_end(row, i);
		char saved = row[e];
		row[e] = '\0';
		bool is_access = access_class(row + i) >= 0;
		/* which access column, by position: nearest header start */
		size_t dtx = i > tx_col ? i - tx_col : tx_col - i;
		size_t drx = i > rx_col ? i - rx_col : rx_col - i;
		if (!is_access && !rx_done && near_access_word(row + i))
			return slt_error_set_line(b->err, SLT_ECORRUPT, b->name,
				line, "access values: read_mostly, read_write, "
				"write_mostly, '-' or empty",
				"unknown access value \"%.40s\"", row + i);
		if (!is_access || rx_done) {
			row[e] = saved;
			comment = row + i;
			break;
		}
		if (!tx_done && dtx <= drx) {
			cell[2] = row + i;
			tx_done = true;
		} else {
			cell[3] = row + i;
			rx_done = tx_done = true;
		}
		i = saved ? tok_start(row, e + 1) : e;
	}
	return add_row(b, line, st, cell[0], cell[1], cell[2], cell[3],
		       trim(comment));
}

/* Struct name from a title "tcp_sock struct fast path usage breakdown". */
static char *title_name(struct builder *b, const char *title)
{
	size_t n = strcspn(title, " \t");
	if (n == 0 || strstr(title, "fast path") == NULL)
		return NULL;
	return slt_arena_strndup(b->arena, title, n);
}

static int parse_net_cachelines(struct builder *b, struct lines *ls,
				const char *struct_name)
{
	static const char hdr_hint[] = "a net_cachelines table has a header "
		"line: Type Name fastpath_tx_access fastpath_rx_access Comments";
	char buf[MAX_LINE], prev[MAX_LINE] = "", cellbuf[5][MAX_LINE];
	const char *st = struct_name ? bare_tag(struct_name) : NULL;
	char *title = NULL;
	size_t col[MAX_COLS], ncol = 0;
	bool rst = false, in_table = false, header_rule_seen = false;
	size_t tx_col = 0, rx_col = 0;
	int rc;
	while ((rc = next_line(ls, buf, b)) == 1) {
		unsigned line = ls->lineno;
		char *t = trim(buf);
		if (!in_table) {
			if (strstr(t, "fastpath_tx_access") &&
			    strstr(t, "fastpath_rx_access")) {
				in_table = true;
				if (is_rule(prev)) {
					rst = true;
					ncol = rule_cols(prev, col, MAX_COLS);
					if (ncol < 4)
						return slt_error_set_line(b->err,
							SLT_ECORRUPT, b->name,
							line - 1, hdr_hint,
							"the rule above the header "
							"has %zu columns, not 5",
							ncol);
				} else {
					char *tp = strstr(buf, "fastpath_tx_access");
					char *rp = strstr(buf, "fastpath_rx_access");
					tx_col = (size_t)(tp - buf);
					rx_col = (size_t)(rp - buf);
					if (rx_col <= tx_col)
						return slt_error_set_line(b->err,
							SLT_ECORRUPT, b->name,
							line, hdr_hint,
							"fastpath_rx_access comes "
							"before fastpath_tx_access");
				}
			} else if (*t && !is_rule(t) && strncmp(t, "..", 2) != 0 &&
				   !title) {
				title = title_name(b, t);
			}
			snprintf(prev, sizeof(prev), "%s", buf);
			continue;
		}
		if (!*t)
			continue;
		if (rst) {
			if (is_rule(t)) {
				if (!header_rule_seen) {
					header_rule_seen = true;
					continue;
				}
				break;          /* the closing rule */
			}
		} else if (strncmp(t, "..", 2) == 0) {
			/* "..struct ..NAME" */
			char *second = strstr(t + 2, "..");
			if (second && !st) {
				size_t n = strcspn(second + 2, " \t");
				if (n && !(st = slt_arena_strndup(b->arena,
							second + 2, n)))
					return nomem(b);
			}
			continue;
		}
		if (!st)
			st = title;
		if (!st)
			return slt_error_set_line(b->err, SLT_ECORRUPT, b->name,
				line, "give the struct name (--classes-struct)",
				"cannot tell which struct the table describes "
				"(no \"..struct ..NAME\" line or title)");
		if (rst) {
			size_t len = strlen(buf);
			char *c[5];
			for (size_t i = 0; i < 5; i++)
				c[i] = i < ncol ? rst_cell(buf, len, col, ncol, i,
							   cellbuf[i], MAX_LINE) :
						  (cellbuf[i][0] = '\0', cellbuf[i]);
			rc = add_row(b, line, st, c[0], c[1], c[2], c[3], c[4]);
		} else {
			rc = parse_early_row(b, line, st, buf, tx_col, rx_col);
		}
		if (rc)
			return rc;
	}
	if (rc < 0)
		return rc;
	if (!in_table)
		return slt_error_set_line(b->err, SLT_ECORRUPT, b->name,
					  ls->lineno, hdr_hint,
					  "no net_cachelines table header found");
	return 0;
}

/* ---- entry points ------------------------------------------------------ */

static bool looks_net_cachelines(const char *p, size_t n)
{
	static const char tag[] = "fastpath_tx_access";
	size_t m = n < 65536 ? n : 65536;
	for (size_t i = 0; i + sizeof(tag) - 1 <= m; i++)
		if (memcmp(p + i, tag, sizeof(tag) - 1) == 0)
			return true;
	return false;
}

int slt_classes_read_mem(const void *data, size_t size, const char *name,
			 enum slt_classes_format fmt, const char *struct_name,
			 struct slt_classes **out, struct slt_error *err)
{
	*out = NULL;
	if (!name)
		name = "<classes>";
	struct builder b = { .name = name, .err = err };
	b.c = calloc(1, sizeof(*b.c));
	b.arena = slt_arena_new();
	if (b.arena)
		b.name = slt_arena_strdup(b.arena, name);
	if (!b.c || !b.arena || !b.name || slt_classes_priv_init(b.c, b.arena)) {
		free(b.c);
		slt_arena_free(b.arena);
		return slt_error_set(err, SLT_ENOMEM, name, -1, NULL,
				     "out of memory");
	}
	if (fmt == SLT_CLASSES_AUTO)
		fmt = looks_net_cachelines(data, size) ?
		      SLT_CLASSES_NET_CACHELINES : SLT_CLASSES_FILE;
	b.c->format = fmt;
	struct lines ls = { .p = data, .n = data ? size : 0 };
	int rc;
	if (fmt == SLT_CLASSES_NET_CACHELINES)
		rc = parse_net_cachelines(&b, &ls, struct_name);
	else if (fmt == SLT_CLASSES_FILE)
		rc = parse_classes_file(&b, &ls);
	else
		rc = slt_error_set(err, SLT_EUSAGE, name, -1, NULL,
				   "unknown classes format %d", (int)fmt);
	if (rc) {
		slt_classes_free(b.c);
		return rc;
	}
	*out = b.c;
	return 0;
}

int slt_classes_read(const char *path, enum slt_classes_format fmt,
		     const char *struct_name, struct slt_classes **out,
		     struct slt_error *err)
{
	*out = NULL;
	FILE *f = fopen(path, "rb");
	if (!f)
		return slt_error_set(err, SLT_EIO, path, -1,
				     "check the path and permissions",
				     "cannot open: %s", strerror(errno));
	size_t cap = 1 << 14, len = 0;
	char *buf = malloc(cap);
	int rc = 0;
	while (buf) {
		if (len == cap) {
			if (cap >= ((size_t)64 << 20)) {
				rc = slt_error_set(err, SLT_ECORRUPT, path, -1,
						   NULL, "classes input over 64 MiB");
				break;
			}
			char *nb = realloc(buf, cap * 2);
			if (!nb) {
				free(buf);
				buf = NULL;
				break;
			}
			buf = nb;
			cap *= 2;
		}
		size_t got = fread(buf + len, 1, cap - len, f);
		len += got;
		if (got == 0) {
			if (ferror(f))
				rc = slt_error_set(err, SLT_EIO, path,
						   (int64_t)len, NULL,
						   "read error: %s",
						   strerror(errno));
			break;
		}
	}
	fclose(f);
	if (!buf)
		return slt_error_set(err, SLT_ENOMEM, path, -1, NULL,
				     "out of memory");
	if (rc == 0)
		rc = slt_classes_read_mem(buf, len, path, fmt, struct_name,
					  out, err);
	free(buf);
	return rc;
}

const struct slt_class_entry *slt_classes_find(const struct slt_classes *c,
					       const char *struct_name,
					       const char *member)
{
	if (!c || !struct_name || !member)
		return NULL;
	const char *st = bare_tag(struct_name);
	size_t len = strlen(member);
	char *path = malloc(len + 1);
	if (!path)
		return NULL;
	strip_indices(path, member, len);
	const struct slt_class_entry *found = NULL;
	while (!found) {
		size_t i;
		if (slt_classes_index_find(c, st, path, &i) == 1)
			found = &c->entries[i];
		char *dot = strrchr(path, '.');
		if (!dot)
			break;
		*dot = '\0';
	}
	free(path);
	return found;
}

enum slt_class slt_classes_lookup(const struct slt_classes *c,
				  const char *struct_name, const char *member,
				  enum slt_net_path path)
{
	const struct slt_class_entry *e = slt_classes_find(c, struct_name,
							    member);
	if (!e)
		return SLT_CLASS_NONE;
	if (path == SLT_PATH_TX && e->tx != SLT_CLASS_NONE)
		return e->tx;
	if (path == SLT_PATH_RX && e->rx != SLT_CLASS_NONE)
		return e->rx;
	return e->cls;
}

static const char *dup_or_null(struct slt_arena *a, const char *s, bool *bad)
{
	char *d = s ? slt_arena_strdup(a, s) : NULL;
	*bad |= s && !d;
	return d;
}

int slt_classes_merge(struct slt_classes *dst, const struct slt_classes *src,
		      struct slt_error *err)
{
	for (size_t i = 0; src && i < src->n; i++) {
		const struct slt_class_entry *e = &src->entries[i];
		const struct slt_class_entry *have = NULL;
		size_t k;
		int found = slt_classes_index_find(dst, e->struct_name, e->member, &k);
		if (found < 0)
			return slt_error_set(err, SLT_ENOMEM, NULL, -1, NULL, "out of memory");
		if (found)
			have = &dst->entries[k];
		if (have && have->cls == e->cls &&
		    !strcmp(have->writer ? have->writer : "", e->writer ? e->writer : ""))
			continue;
		if (have)
			return slt_error_set_line(err, SLT_EUSAGE, e->file ? e->file : "",
				e->line, "give each member one class across the --classes files",
				"%s.%s is %s here but %s at %s:%u", e->struct_name, e->member,
				slt_class_name(e->cls), slt_class_name(have->cls),
				have->file ? have->file : "", have->line);
		if (slt_classes_reserve(dst))
			return slt_error_set(err, SLT_ENOMEM, NULL, -1, NULL, "out of memory");
		bool bad = false;
		struct slt_arena *a = slt_classes_arena(dst);
		struct slt_class_entry c = *e;
		c.struct_name = dup_or_null(a, e->struct_name, &bad);
		c.member = dup_or_null(a, e->member, &bad);
		c.type = dup_or_null(a, e->type, &bad);
		c.comment = dup_or_null(a, e->comment, &bad);
		c.file = dup_or_null(a, e->file, &bad);
		c.writer = dup_or_null(a, e->writer, &bad);
		if (bad)
			return slt_error_set(err, SLT_ENOMEM, NULL, -1, NULL, "out of memory");
		dst->entries[dst->n++] = c;
	}
	return 0;
}

void slt_classes_free(struct slt_classes *c)
{
	if (!c)
		return;
	free(c->entries);
	slt_classes_priv_free(c);
	free(c);
}
