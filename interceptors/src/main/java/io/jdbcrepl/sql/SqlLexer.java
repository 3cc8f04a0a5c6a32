package io.jdbcrepl.sql;

import io.jdbcrepl.dialect.Dialect;

/**
 * Just enough SQL lexing to read leading keywords and find where statements end without the
 * parser: whitespace, comments, string literals, quoted identifiers and dollar quotes, per dialect ({@link SqlSyntax}).
 * The static methods serve {@link SqlClassifier#mayChangeRows} and allocate nothing; {@link SqlToken}
 * is its public view for readers of SQL outside this package.
 */
final class SqlLexer {

    enum Kind { WORD, QUOTED, STRING, NUMBER, SYMBOL, END }

    private final String sql;
    private final SqlSyntax syntax;
    private final int commentRules;
    private int pos;
    private Kind kind;
    private int start;
    private int end;
    private boolean executableComment;
    private boolean closed;

    SqlLexer(String sql, Dialect dialect, int from) {
        this.sql = sql;
        this.syntax = dialect.part(SqlSyntax.class);
        this.commentRules = commentRules(syntax);
        this.pos = from;
    }

    /** Moves to the next token and returns its kind. */
    Kind next() {
        pos = skipBlank(pos);
        start = pos;
        if (pos >= sql.length()) {
            end = pos;
            return kind = Kind.END;
        }
        char c = sql.charAt(pos);
        boolean backslashes = syntax.backslashEscapes();
        closed = true;
        if (c == '\'') {
            end = quoteEnd(pos, '\'', backslashes);
            kind = Kind.STRING;
        } else if ((c == 'E' || c == 'e') && syntax.escapeStrings() && at(pos + 1, '\'')) {
            end = quoteEnd(pos + 1, '\'', true);
            kind = Kind.STRING;
        } else if (c == '"' || c == '`') {
            end = quoteEnd(pos, c, backslashes);
            kind = Kind.QUOTED;
        } else if (c == '$' && syntax.dollarQuotes() && dollarTagEnd(pos) > 0) {
            int tagEnd = dollarTagEnd(pos);
            int close = sql.indexOf(sql.substring(pos, tagEnd), tagEnd);
            end = close < 0 ? sql.length() : close + (tagEnd - pos);
            closed = close >= 0;
            kind = Kind.STRING;
        } else if (isWordStart(c)) {
            end = wordEnd(sql, pos);
            kind = Kind.WORD;
        } else if (Character.isDigit(c)) {
            end = pos + 1;
            while (end < sql.length() && (Character.isLetterOrDigit(sql.charAt(end)) || sql.charAt(end) == '.')) end++;
            kind = Kind.NUMBER;
        } else {
            end = pos + 1;
            kind = Kind.SYMBOL;
        }
        pos = end;
        return kind;
    }

    Kind kind() {
        return kind;
    }

    int start() {
        return start;
    }

    int end() {
        return end;
    }

    String text() {
        return sql.substring(start, end);
    }

    boolean isWord(String keyword) {
        return kind == Kind.WORD && end - start == keyword.length()
                && sql.regionMatches(true, start, keyword, 0, keyword.length());
    }

    boolean isWordIn(String... keywords) {
        for (String k : keywords) {
            if (isWord(k)) return true;
        }
        return false;
    }

    boolean isSymbol(char c) {
        return kind == Kind.SYMBOL && sql.charAt(start) == c;
    }

    boolean isName() {
        return kind == Kind.WORD || kind == Kind.QUOTED;
    }

    /** A {@code name[.name…]} as written: its parts and where it stands in the SQL. */
    record DottedName(java.util.List<String> parts, int start, int end) {
    }

    /**
     * Reads {@code name[.name…]} at the current token, leaving the lexer after it; null when there is
     * no name there or a dot is not followed by one.
     */
    DottedName dottedName() {
        if (!isName()) return null;
        int first = start;
        int last = end;
        java.util.List<String> parts = new java.util.ArrayList<>();
        parts.add(text());
        while (next() == Kind.SYMBOL && isSymbol('.')) {
            next();
            if (!isName()) return null;
            parts.add(text());
            last = end;
        }
        return new DottedName(parts, first, last);
    }

    /** Whether the current string or quoted name is closed before the end of the SQL. */
    boolean closed() {
        return closed;
    }

    /**
     * What the current token means, as the database reads it: a string's value, a quoted name
     * without its quotes; any other token as written.
     */
    String value() {
        if (kind == Kind.QUOTED) {
            String q = sql.substring(start, start + 1);
            return inner(start + 1, q).replace(q + q, q);
        }
        if (kind != Kind.STRING) return text();
        char c = sql.charAt(start);
        if (c == '$') {
            int tag = dollarTagEnd(start) - start;
            return closed ? sql.substring(start + tag, end - tag) : sql.substring(start + tag, end);
        }
        if (c == '\'') {
            String s = inner(start + 1, "'");
            return syntax.backslashEscapes() ? unescape(s, true) : s.replace("''", "'");
        }
        return unescape(inner(start + 2, "'"), false); // E'…'
    }

    /** The token's text from {@code from} up to its closing quote (if it has one). */
    private String inner(int from, String quote) {
        return closed && end > from && sql.startsWith(quote, end - 1) ? sql.substring(from, end - 1) : sql.substring(from, end);
    }

    /**
     * A string's backslash escapes and doubled quotes resolved: MySQL's ({@code \%} and
     * {@code \_} keep their backslash, {@code \0}, {@code \Z}) or PostgreSQL's {@code E'…'}
     * (octal, hexadecimal and Unicode codes).
     */
    private static String unescape(String s, boolean mysql) {
        StringBuilder out = new StringBuilder(s.length());
        int n = s.length();
        int i = 0;
        while (i < n) {
            char c = s.charAt(i);
            if (c == '\'' && i + 1 < n && s.charAt(i + 1) == '\'') {
                out.append('\'');
                i += 2;
                continue;
            }
            if (c != '\\' || i + 1 == n) {
                out.append(c);
                i++;
                continue;
            }
            char e = s.charAt(i + 1);
            i += 2;
            switch (e) {
                case 'b' -> out.append('\b');
                case 'n' -> out.append('\n');
                case 'r' -> out.append('\r');
                case 't' -> out.append('\t');
                default -> {
                    if (mysql) {
                        if (e == '0') out.append('\0');
                        else if (e == 'Z') out.append((char) 0x1A);
                        else if (e == '%' || e == '_') out.append('\\').append(e);
                        else out.append(e);
                    } else if (e == 'f') {
                        out.append('\f');
                    } else if (e >= '0' && e <= '7') {
                        int j = i - 1;
                        int stop = Math.min(n, j + 3);
                        while (i < stop && s.charAt(i) >= '0' && s.charAt(i) <= '7') i++;
                        out.append((char) Integer.parseInt(s.substring(j, i), 8));
                    } else if (e == 'x' || e == 'u' || e == 'U') {
                        int digits = e == 'x' ? 2 : e == 'u' ? 4 : 8;
                        int j = i;
                        while (i < n && i - j < digits && Character.digit(s.charAt(i), 16) >= 0) i++;
                        long code = i == j ? -1 : Long.parseLong(s.substring(j, i), 16);
                        if ((e != 'x' && i - j < digits) || !Character.isValidCodePoint((int) code) || code != (int) code) {
                            out.append(e);
                            i = j;
                        } else {
                            out.appendCodePoint((int) code);
                        }
                    } else {
                        out.append(e);
                    }
                }
            }
        }
        return out.toString();
    }

    /** Whether a MySQL executable comment ({@code /*! … *}{@code /}) was skipped: its content runs. */
    boolean sawExecutableComment() {
        return executableComment;
    }

    private boolean at(int i, char c) {
        return i < sql.length() && sql.charAt(i) == c;
    }

    private int skipBlank(int from) {
        int rules = commentRules;
        int p = from;
        while (true) {
            if (syntax.executableComments() && (sql.startsWith("/*!", p) || sql.startsWith("/*M!", p))) {
                executableComment = true;
            }
            int next = skipOne(sql, p, rules);
            if (next < 0) return sql.length();
            if (next == p) return p;
            p = next;
        }
    }

    /** The end of a quoted token starting at {@code open}; a doubled quote (or backslash) escapes. */
    private int quoteEnd(int open, char quote, boolean backslashEscapes) {
        int i = open + 1;
        while (i < sql.length()) {
            char c = sql.charAt(i);
            if (backslashEscapes && c == '\\') {
                i += 2;
            } else if (c == quote) {
                if (!at(i + 1, quote)) return i + 1;
                i += 2;
            } else {
                i++;
            }
        }
        closed = false;
        return sql.length();
    }

    /** The end of a dollar-quote tag ({@code $$}, {@code $body$}) starting at {@code i}, or -1. */
    private int dollarTagEnd(int i) {
        if (i > 0 && isWordPart(sql.charAt(i - 1))) return -1; // inside a name like a$b
        int j = i + 1;
        if (j < sql.length() && Character.isDigit(sql.charAt(j))) return -1; // $1: a parameter
        while (j < sql.length() && sql.charAt(j) != '$') {
            if (!isWordPart(sql.charAt(j))) return -1;
            j++;
        }
        return j < sql.length() ? j + 1 : -1;
    }

    // ---- allocation-free helpers ----

    /** Block comments nest (PostgreSQL, H2). */
    static final int NESTED = 1;
    /** {@code #} starts a line comment (MySQL). */
    static final int HASH = 2;
    /** {@code //} starts a line comment (H2). */
    static final int SLASHES = 4;
    /** {@code --} starts a comment only when a blank follows (MySQL). */
    static final int DASHES_NEED_BLANK = 8;

    static int commentRules(SqlSyntax syntax) {
        return (syntax.nestedComments() ? NESTED : 0) | (syntax.hashComments() ? HASH : 0)
                | (syntax.slashComments() ? SLASHES : 0) | (syntax.dashesNeedBlank() ? DASHES_NEED_BLANK : 0);
    }

    /**
     * Skips one run of whitespace or one comment at {@code p}: returns where it ends, {@code p}
     * itself when there is none, or -1 when a block comment is not closed.
     */
    static int skipOne(String sql, int p, int rules) {
        int n = sql.length();
        if (p >= n) return p;
        char c = sql.charAt(p);
        if (Character.isWhitespace(c) || c == '\uFEFF') {
            int i = p + 1;
            while (i < n && (Character.isWhitespace(sql.charAt(i)) || sql.charAt(i) == '\uFEFF')) i++;
            return i;
        }
        char c2 = p + 1 < n ? sql.charAt(p + 1) : 0;
        boolean dashes = c == '-' && c2 == '-'
                && ((rules & DASHES_NEED_BLANK) == 0 || p + 2 == n || sql.charAt(p + 2) <= ' ');
        boolean lineComment = dashes || (c == '#' && (rules & HASH) != 0)
                || (c == '/' && c2 == '/' && (rules & SLASHES) != 0);
        if (lineComment) {
            int eol = p;
            while (eol < n && sql.charAt(eol) != '\n' && sql.charAt(eol) != '\r') eol++;
            return eol;
        }
        if (c == '/' && c2 == '*') {
            int level = 1;
            int i = p + 2;
            while (i < n) {
                if (sql.charAt(i) == '*' && i + 1 < n && sql.charAt(i + 1) == '/') {
                    if (--level == 0) return i + 2;
                    i += 2;
                } else if ((rules & NESTED) != 0 && sql.charAt(i) == '/' && i + 1 < n && sql.charAt(i + 1) == '*') {
                    level++;
                    i += 2;
                } else {
                    i++;
                }
            }
            return -1;
        }
        return p;
    }

    /** {@link #skipOne} repeated: where the next token starts, or -1 at an unclosed block comment. */
    static int skipBlank(String sql, int p, int rules) {
        while (true) {
            int next = skipOne(sql, p, rules);
            if (next <= p) return next;
            p = next;
        }
    }

    static int wordEnd(String sql, int p) {
        int i = p;
        while (i < sql.length() && isWordPart(sql.charAt(i))) i++;
        return i;
    }

    static boolean isWordStart(char c) {
        return Character.isLetter(c) || c == '_';
    }

    static boolean isWordPart(char c) {
        return Character.isLetterOrDigit(c) || c == '_' || c == '$';
    }
}
