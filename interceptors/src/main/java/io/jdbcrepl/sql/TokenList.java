package io.jdbcrepl.sql;

import net.sf.jsqlparser.parser.ASTNodeAccess;
import net.sf.jsqlparser.parser.SimpleNode;
import net.sf.jsqlparser.parser.Token;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * The parser's tokens of one statement, each with its offsets in the SQL, its bracket depth and, for
 * a JDBC {@code ?}, its 1-based parameter index. Clause texts are cut from the SQL between token
 * offsets, so they are exactly what the application wrote (comments inside included).
 */
final class TokenList {

    private final String sql;
    private final String[] images;
    private final int[] begin;
    private final int[] end;
    private final int[] depth;
    private final int[] parameter;
    private final int[] lineStarts;
    private final int size;
    private final int parameterCount;
    private final boolean numberedParameters;

    private TokenList(String sql, List<Token> tokens) {
        this.sql = sql;
        this.size = tokens.size();
        this.images = new String[size];
        this.begin = new int[size];
        this.end = new int[size];
        this.depth = new int[size];
        this.parameter = new int[size];
        this.lineStarts = lineStarts(sql);
        int level = 0;
        int parameters = 0;
        boolean numbered = false;
        for (int i = 0; i < size; i++) {
            Token t = tokens.get(i);
            images[i] = t.image;
            begin[i] = offset(t.beginLine, t.beginColumn);
            end[i] = Math.min(sql.length(), offset(t.endLine, t.endColumn) + 1);
            if (t.image.equals(")") || t.image.equals("]") || t.image.equals("}")) level--;
            depth[i] = level;
            if (t.image.equals("(") || t.image.equals("[") || t.image.startsWith("{")) level++;
            if (t.image.equals("?")) parameter[i] = ++parameters;
            numbered |= t.image.length() > 1 && t.image.charAt(0) == '$' && Character.isDigit(t.image.charAt(1));
        }
        for (int i = 1; i < size; i++) { // "?1": the parser reads ? and 1 as two tokens
            numbered |= parameter[i - 1] > 0 && begin[i] == end[i - 1] && Character.isDigit(images[i].charAt(0));
        }
        this.parameterCount = parameters;
        this.numberedParameters = numbered;
    }

    /** The tokens the parser linked after {@code head} (its token before parsing), up to EOF. */
    static TokenList of(String sql, Token head) {
        List<Token> tokens = new ArrayList<>();
        for (Token t = head.next; t != null && t.kind != 0; t = t.next) tokens.add(t);
        return new TokenList(sql, tokens);
    }

    /** Offsets where lines start, counting line breaks the way the parser does (\n, \r\n, \r). */
    private static int[] lineStarts(String sql) {
        int[] starts = new int[16];
        int n = 1;
        for (int i = 0; i < sql.length(); i++) {
            char c = sql.charAt(i);
            if (c == '\n' || (c == '\r' && (i + 1 == sql.length() || sql.charAt(i + 1) != '\n'))) {
                if (n == starts.length) starts = Arrays.copyOf(starts, n * 2);
                starts[n++] = i + 1;
            }
        }
        return Arrays.copyOf(starts, n);
    }

    int size() {
        return size;
    }

    int parameterCount() {
        return parameterCount;
    }

    /** Whether the SQL uses numbered parameters ({@code $1}, {@code ?1}), which are not JDBC's. */
    boolean hasNumberedParameters() {
        return numberedParameters;
    }

    int depth(int i) {
        return depth[i];
    }

    boolean is(int i, String word) {
        return i >= 0 && i < size && images[i].equalsIgnoreCase(word);
    }

    String image(int i) {
        return images[i];
    }

    /** The index of the end of the statement: its {@code ;} at depth 0, or the size. */
    int statementEnd() {
        for (int i = 0; i < size; i++) {
            if (depth[i] == 0 && images[i].equals(";")) return i;
        }
        return size;
    }

    /** The index of the first token of a parsed node, or -1 when the parser kept no position for it. */
    int first(Object node) {
        SimpleNode ast = node instanceof ASTNodeAccess a ? a.getASTNode() : null;
        return ast == null ? -1 : indexAt(ast.jjtGetFirstToken());
    }

    /** The index of the last token of a parsed node, or -1 when the parser kept no position for it. */
    int last(Object node) {
        SimpleNode ast = node instanceof ASTNodeAccess a ? a.getASTNode() : null;
        return ast == null ? -1 : indexAt(ast.jjtGetLastToken());
    }

    private int indexAt(Token t) {
        int i = Arrays.binarySearch(begin, 0, size, offset(t.beginLine, t.beginColumn));
        return i >= 0 && images[i].equals(t.image) ? i : -1;
    }

    /** The offset of a 1-based line and column (the parser counts UTF-16 chars, a tab as one). */
    private int offset(int line, int column) {
        return lineStarts[line - 1] + column - 1;
    }

    /**
     * The first index in [from, to) at depth 0 where the tokens read {@code words} (case-insensitive),
     * or -1. A FROM right after DISTINCT belongs to {@code IS DISTINCT FROM}, never starts a clause.
     */
    int find(int from, int to, String... words) {
        outer:
        for (int i = Math.max(from, 0); i + words.length <= to; i++) {
            if (depth[i] != 0) continue;
            for (int k = 0; k < words.length; k++) {
                if (!images[i + k].equalsIgnoreCase(words[k])) continue outer;
            }
            if (words[0].equalsIgnoreCase("FROM") && is(i - 1, "DISTINCT")) continue;
            return i;
        }
        return -1;
    }

    /** The index of the bracket that closes the one at {@code open}, or -1. */
    int closing(int open) {
        for (int i = open + 1; i < size; i++) {
            if (depth[i] == depth[open]) return isCloser(i) ? i : -1;
        }
        return -1;
    }

    private boolean isCloser(int i) {
        return images[i].equals(")") || images[i].equals("]") || images[i].equals("}");
    }

    /** [from, to) cut at the commas at the depth of {@code from}, as [start, end) pairs. */
    List<int[]> splitAtCommas(int from, int to) {
        List<int[]> parts = new ArrayList<>();
        int level = from < size ? depth[from] : 0;
        int start = from;
        for (int i = from; i < to; i++) {
            if (depth[i] == level && images[i].equals(",")) {
                parts.add(new int[] {start, i});
                start = i + 1;
            }
        }
        parts.add(new int[] {start, to});
        return parts;
    }

    /** Whether a token in [from, to) reads {@code word}, at any depth. */
    boolean contains(int from, int to, String word) {
        for (int i = from; i < to; i++) {
            if (images[i].equalsIgnoreCase(word)) return true;
        }
        return false;
    }

    /** The SQL as written from token {@code from} to token {@code to - 1}. */
    String text(int from, int to) {
        if (from >= to) throw new UnreadableSqlException("an empty clause");
        return sql.substring(begin[from], end[to - 1]).strip();
    }

    /** The text of [from, to) with the indexes of the parameters in it. */
    SqlFragment fragment(int from, int to) {
        List<Integer> indexes = new ArrayList<>();
        for (int i = from; i < to; i++) {
            if (parameter[i] > 0) indexes.add(parameter[i]);
        }
        return new SqlFragment(text(from, to), indexes);
    }
}
