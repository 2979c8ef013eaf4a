/* SPDX-License-Identifier: MIT */
/*
 * Plain C base types, the source's against the DWARF's (diff_int.h): the
 * source diff checks that a declaration it moves declares the member the
 * layout has, by name and, for plain C arithmetic types, by type.
 */
#include <stdio.h>
#include <string.h>

#include "advice/diff_int.h"

/* A plain C arithmetic type as a canonical key: "u" for unsigned, "s" for
 * an explicit signed char, then the base (char, short, int, long, llong,
 * float, double, ldouble, _Bool, void) and one '*' per pointer level.
 * words[n]: the type's words and '*'s; false when a word is not a C type
 * keyword (a typedef, macro or tag: left alone). */
static const char *const ctype_kw[] = { "char", "short", "int", "long", "signed",
	"unsigned", "float", "double", "_Bool", "void", "const", "volatile",
	"restrict", NULL };

bool slt_diff_ctype_word(const char *w, size_t len)
{
	for (size_t k = 0; ctype_kw[k]; k++)
		if (strlen(ctype_kw[k]) == len && !memcmp(ctype_kw[k], w, len))
			return true;
	return false;
}

bool slt_diff_ctype_key(const char *const *words, const size_t *lens, size_t n,
			char *key, size_t cap)
{
	const char *const *kw = ctype_kw;
	unsigned cnt[13] = { 0 }, stars = 0;

	for (size_t i = 0; i < n; i++) {
		size_t k = 0;
		if (lens[i] == 1 && words[i][0] == '*') {
			stars++;
			continue;
		}
		while (kw[k] && (strlen(kw[k]) != lens[i] || memcmp(kw[k], words[i], lens[i])))
			k++;
		if (!kw[k])
			return false;
		cnt[k]++;
	}
	const char *base = cnt[0] ? "char" : cnt[1] ? "short" : cnt[6] ? "float" :
		cnt[7] ? (cnt[3] ? "ldouble" : "double") : cnt[8] ? "_Bool" :
		cnt[9] ? "void" : cnt[3] >= 2 ? "llong" : cnt[3] ? "long" :
		cnt[2] || cnt[4] || cnt[5] ? "int" : NULL;
	if (!base)
		return false;
	snprintf(key, cap, "%s%s%s%.*s", cnt[5] ? "u" : "",
		 cnt[4] && cnt[0] ? "s" : "", base, (int)(stars < 8 ? stars : 8), "********");
	return true;
}

/* The DWARF type name's key (pahole's spelling: "long unsigned int",
 * "const char *", "long int[3][2]"); false for anything else (functions,
 * tags, typedefs). */
bool slt_diff_dwarf_key(const char *type, char *key, size_t cap)
{
	const char *w[16];
	size_t len[16], n = 0;

	for (const char *p = type; *p && *p != '['; ) {
		if (*p == ' ') {
			p++;
			continue;
		}
		if (n == 16 || *p == '(')
			return false;
		w[n] = p;
		len[n] = *p == '*' ? 1 : strcspn(p, " *[(");
		p += len[n++];
	}
	return slt_diff_ctype_key(w, len, n, key, cap);
}
