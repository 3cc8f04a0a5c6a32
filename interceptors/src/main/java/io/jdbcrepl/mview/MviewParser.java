package io.jdbcrepl.mview;

import io.jdbcrepl.sql.SqlToken;
import io.jdbcrepl.sql.SqlToken.Kind;
import io.jdbcrepl.dialect.Dialect;
import io.jdbcrepl.intercept.SqlState;
import io.jdbcrepl.mview.MviewCommand.CreateLog;
import io.jdbcrepl.mview.MviewCommand.CreateView;
import io.jdbcrepl.mview.MviewCommand.DropLog;
import io.jdbcrepl.mview.MviewCommand.DropView;
import io.jdbcrepl.mview.MviewCommand.Method;
import io.jdbcrepl.mview.MviewCommand.Name;
import io.jdbcrepl.mview.MviewCommand.PurgeLog;
import io.jdbcrepl.mview.MviewCommand.Refresh;

import java.sql.SQLException;
import java.sql.SQLFeatureNotSupportedException;
import java.sql.SQLSyntaxErrorException;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Optional;

/**
 * Reads the Oracle statements of SPEC 6 that no vendor here understands. {@link #parse} answers
 * empty for every other statement, which then goes to the database as written; a statement that
 * is ours but malformed fails with 42601, an Oracle option that has no meaning here with 0AR01.
 * {@code CREATE MATERIALIZED VIEW} is ours only with a {@code BUILD} or {@code REFRESH} clause:
 * without one it stays PostgreSQL's own materialized view.
 */
public final class MviewParser {

    private final Dialect dialect;
    private final String sql;
    private final List<SqlToken> tokens;
    private int pos;

    private MviewParser(String sql, Dialect dialect) throws SQLException {
        this.sql = sql;
        this.dialect = dialect;
        this.tokens = scan(sql, dialect);
    }

    /** The tokens of {@code sql} read as the database reads them; a string or quoted name must be closed. */
    private static List<SqlToken> scan(String sql, Dialect dialect) throws SQLException {
        List<SqlToken> tokens = SqlToken.read(sql, dialect);
        for (SqlToken t : tokens) {
            if (!t.closed()) {
                String text = t.text();
                int open = Character.isLetter(text.charAt(0)) ? 1 : 0; // E'…'
                String quote = text.charAt(open) == '$' ? text.substring(0, text.indexOf('$', 1) + 1) : text.substring(open, open + 1);
                throw new SQLSyntaxErrorException("unterminated " + quote + " in: " + abbreviate(sql), SqlState.SYNTAX_ERROR.code());
            }
        }
        return tokens;
    }

    /**
     * Cheap test, no allocation beyond a scan of the first word: whether {@code sql} may be ours.
     * False for almost every statement an application runs.
     */
    public static boolean mayBeOurs(String sql) {
        if (sql == null) return false;
        int i = 0;
        int n = sql.length();
        while (i < n && (Character.isWhitespace(sql.charAt(i)) || sql.charAt(i) == '{')) i++;
        if (i >= n) return false;
        char c = Character.toUpperCase(sql.charAt(i));
        if (c != 'C' && c != 'D' && c != 'B' && c != 'E') return false;
        return containsIgnoreCase(sql, "MATERIALIZED") || containsIgnoreCase(sql, "DBMS_MVIEW");
    }

    private static boolean containsIgnoreCase(String s, String word) {
        int len = word.length();
        for (int i = 0; i + len <= s.length(); i++) {
            if (s.regionMatches(true, i, word, 0, len)) return true;
        }
        return false;
    }

    /** The command {@code sql} stands for, or empty when it is not ours. */
    public static Optional<MviewCommand> parse(String sql, Dialect dialect) throws SQLException {
        if (!mayBeOurs(sql)) return Optional.empty();
        return new MviewParser(sql, dialect).command();
    }

    private Optional<MviewCommand> command() throws SQLException {
        if (accept("{")) { // JDBC escape {call …}
            MviewCommand c = call();
            expect("}");
            return end(c);
        }
        if (accept("CALL") || accept("EXEC") || accept("EXECUTE")) return end(callBody());
        if (accept("BEGIN")) {
            MviewCommand c = callBody();
            if (c == null) return Optional.empty();
            accept(";");
            expect("END");
            return end(c);
        }
        if (accept("CREATE")) {
            if (!accept("MATERIALIZED")) return Optional.empty();
            if (!accept("VIEW")) return Optional.empty();
            if (accept("LOG")) return end(createLog());
            return Optional.ofNullable(createView());
        }
        if (accept("DROP")) {
            if (!accept("MATERIALIZED") || !accept("VIEW")) return Optional.empty();
            if (accept("LOG")) {
                expect("ON");
                return end(new DropLog(name()));
            }
            return end(new DropView(name()));
        }
        return Optional.empty();
    }

    private MviewCommand call() throws SQLException {
        expect("CALL");
        return callBody();
    }

    /** {@code DBMS_MVIEW.REFRESH(…)} or {@code DBMS_MVIEW.PURGE_LOG(…)}; null for another routine. */
    private MviewCommand callBody() throws SQLException {
        if (!accept("DBMS_MVIEW")) return null;
        expect(".");
        String routine = word("REFRESH or PURGE_LOG").toUpperCase(Locale.ROOT);
        List<SqlToken> args = arguments();
        switch (routine) {
            case "REFRESH" -> {
                if (args.isEmpty() || args.size() > 2) throw syntax("DBMS_MVIEW.REFRESH takes a list of views and an optional method");
                List<Name> views = new ArrayList<>();
                for (String v : args.get(0).value().split(",")) {
                    if (!v.isBlank()) views.add(nameOf(v.trim()));
                }
                if (views.isEmpty()) throw syntax("DBMS_MVIEW.REFRESH names no view");
                Method method = args.size() == 2 ? Method.ofLetter(args.get(1).value()) : Method.FORCE;
                if (method == null) {
                    throw syntax("DBMS_MVIEW.REFRESH method '" + args.get(1).value()
                            + "': expected 'F' (fast), 'C' (complete) or '?' (force)");
                }
                return new Refresh(List.copyOf(views), method);
            }
            case "PURGE_LOG" -> {
                if (args.isEmpty() || args.size() > 2) throw syntax("DBMS_MVIEW.PURGE_LOG takes a table and an optional 'DELETE'");
                boolean all = false;
                if (args.size() == 2) {
                    String flag = args.get(1).value().trim();
                    if (!flag.equalsIgnoreCase("DELETE")) {
                        throw new SQLFeatureNotSupportedException("DBMS_MVIEW.PURGE_LOG('" + args.get(0).value()
                                + "', " + args.get(1).text() + "): only the flag 'DELETE' (purge every row) is supported;"
                                + " without it the rows every fast-refresh view has refreshed past are purged", SqlState.REFUSED.code());
                    }
                    all = true;
                }
                return new PurgeLog(nameOf(args.get(0).value().trim()), all);
            }
            default -> throw new SQLFeatureNotSupportedException("DBMS_MVIEW." + routine
                    + " is not supported: the driver knows DBMS_MVIEW.REFRESH and DBMS_MVIEW.PURGE_LOG", SqlState.REFUSED.code());
        }
    }

    /** {@code ( 'a' [, 'b' | number] )}: string or number literals. */
    private List<SqlToken> arguments() throws SQLException {
        expect("(");
        List<SqlToken> args = new ArrayList<>();
        if (accept(")")) return args;
        do {
            SqlToken t = next();
            if (t == null || (t.kind() != Kind.STRING && t.kind() != Kind.NUMBER)) {
                throw syntax("expected a string literal argument" + near(t));
            }
            args.add(t);
        } while (accept(","));
        expect(")");
        return args;
    }

    private MviewCommand createLog() throws SQLException {
        expect("ON");
        Name table = name();
        boolean pk = false;
        boolean rowid = false;
        boolean sequence = false;
        List<String> columns = new ArrayList<>();
        boolean newValues = false;
        boolean sawWith = false;
        while (peek() != null && !peekIs(";")) {
            if (accept("WITH")) {
                sawWith = true;
                do {
                    if (peekIs("(")) {
                        columns.addAll(columnList());
                    } else if (accept("PRIMARY")) {
                        expect("KEY");
                        pk = true;
                    } else if (accept("ROWID")) {
                        rowid = true;
                    } else if (accept("SEQUENCE")) {
                        sequence = true;
                    } else if (accept("OBJECT")) {
                        expect("ID");
                        throw new SQLFeatureNotSupportedException("CREATE MATERIALIZED VIEW LOG ON " + table
                                + " WITH OBJECT ID: object tables do not exist on " + dialect.product()
                                + "; use WITH PRIMARY KEY or WITH ROWID", SqlState.REFUSED.code());
                    } else if (accept("COMMIT")) {
                        throw new SQLFeatureNotSupportedException("CREATE MATERIALIZED VIEW LOG ON " + table
                                + " WITH COMMIT SCN is not supported: there is no SCN on " + dialect.product(), SqlState.REFUSED.code());
                    } else {
                        throw syntax("expected PRIMARY KEY, ROWID, SEQUENCE or a column list after WITH" + near(peek()));
                    }
                } while (accept(","));
                if (peekIs("(")) columns.addAll(columnList()); // WITH ROWID, SEQUENCE (name, num)
            } else if (accept("INCLUDING")) {
                expect("NEW");
                expect("VALUES");
                newValues = true;
            } else if (accept("EXCLUDING")) {
                expect("NEW");
                expect("VALUES");
                newValues = false;
            } else {
                SqlToken t = peek();
                throw new SQLFeatureNotSupportedException("CREATE MATERIALIZED VIEW LOG ON " + table + ": "
                        + t.text() + " is not supported here; the log takes WITH PRIMARY KEY | ROWID | SEQUENCE |"
                        + " (columns) and INCLUDING | EXCLUDING NEW VALUES", SqlState.REFUSED.code());
            }
        }
        if (!sawWith) pk = true; // Oracle: WITH PRIMARY KEY is the default
        return new CreateLog(table, pk, rowid, sequence, List.copyOf(columns), newValues);
    }

    private List<String> columnList() throws SQLException {
        expect("(");
        List<String> columns = new ArrayList<>();
        do {
            SqlToken t = next();
            if (t == null || !t.isName()) {
                throw syntax("expected a column name" + near(t));
            }
            columns.add(t.kind() == Kind.QUOTED ? t.value() : dialect.fold(t.text(), false));
        } while (accept(","));
        expect(")");
        return columns;
    }

    /** Null when the statement is PostgreSQL's own CREATE MATERIALIZED VIEW (no BUILD, no REFRESH). */
    private MviewCommand createView() throws SQLException {
        Name view = name();
        Method method = null;
        boolean onCommit = false;
        boolean ours = false;
        while (true) {
            if (accept("BUILD")) {
                ours = true;
                if (accept("DEFERRED")) {
                    throw new SQLFeatureNotSupportedException("CREATE MATERIALIZED VIEW " + view
                            + " BUILD DEFERRED is not supported: views are built when created (BUILD IMMEDIATE)", SqlState.REFUSED.code());
                }
                expect("IMMEDIATE");
            } else if (accept("REFRESH")) {
                ours = true;
                if (accept("FAST")) method = Method.FAST;
                else if (accept("COMPLETE")) method = Method.COMPLETE;
                else if (accept("FORCE")) method = Method.FORCE;
                if (accept("ON")) {
                    if (accept("COMMIT")) onCommit = true;
                    else if (accept("DEMAND")) onCommit = false;
                    else throw syntax("expected ON COMMIT or ON DEMAND" + near(peek()));
                }
            } else if (accept("NEVER")) {
                throw new SQLFeatureNotSupportedException("CREATE MATERIALIZED VIEW " + view
                        + " NEVER REFRESH is not supported: create a table with CREATE TABLE … AS", SqlState.REFUSED.code());
            } else {
                break;
            }
        }
        if (!ours) return null;
        SqlToken as = peek();
        if (as == null || !as.is("AS")) {
            throw new SQLFeatureNotSupportedException("CREATE MATERIALIZED VIEW " + view + ": " + (as == null ? "end"
                    : as.text()) + " is not supported here; expected [BUILD IMMEDIATE] REFRESH FAST|COMPLETE|FORCE"
                    + " [ON COMMIT|ON DEMAND] AS SELECT …", SqlState.REFUSED.code());
        }
        pos++;
        SqlToken first = peek();
        if (first == null) throw syntax("CREATE MATERIALIZED VIEW " + view + " AS: the query is missing");
        String query = sql.substring(first.start()).trim();
        if (query.endsWith(";")) query = query.substring(0, query.length() - 1).trim();
        return new CreateView(view, method == null ? Method.FORCE : method, onCommit, query);
    }

    // ---- tokens

    private Name name() throws SQLException {
        SqlToken a = identifier();
        if (accept(".")) {
            SqlToken b = identifier();
            return new Name(fold(a), fold(b));
        }
        return new Name(null, fold(a));
    }

    /** A name inside a string argument: {@code mv}, {@code hr.mv}, {@code "Mv"}. */
    private Name nameOf(String text) throws SQLException {
        List<SqlToken> parts = scan(text, dialect);
        if (parts.size() == 1 && parts.get(0).isName()) return new Name(null, fold(parts.get(0)));
        if (parts.size() == 3 && parts.get(0).isName() && parts.get(1).is(".") && parts.get(2).isName()) {
            return new Name(fold(parts.get(0)), fold(parts.get(2)));
        }
        throw syntax("'" + text + "' is not a table or view name");
    }

    private String fold(SqlToken t) {
        return t.kind() == Kind.QUOTED ? t.value() : dialect.fold(t.text(), false);
    }

    private SqlToken identifier() throws SQLException {
        SqlToken t = next();
        if (t == null || !t.isName()) throw syntax("expected a name" + near(t));
        return t;
    }

    private String word(String expected) throws SQLException {
        SqlToken t = next();
        if (t == null || t.kind() != Kind.WORD) throw syntax("expected " + expected + near(t));
        return t.text();
    }

    private SqlToken peek() {
        return pos < tokens.size() ? tokens.get(pos) : null;
    }

    private boolean peekIs(String text) {
        SqlToken t = peek();
        return t != null && t.is(text);
    }

    private SqlToken next() {
        return pos < tokens.size() ? tokens.get(pos++) : null;
    }

    private boolean accept(String text) {
        if (peekIs(text)) {
            pos++;
            return true;
        }
        return false;
    }

    private void expect(String text) throws SQLException {
        if (!accept(text)) throw syntax("expected " + text + near(peek()));
    }

    private Optional<MviewCommand> end(MviewCommand command) throws SQLException {
        if (command == null) return Optional.empty();
        while (accept(";")) {
            // trailing semicolons
        }
        if (peek() != null) throw syntax("unexpected " + peek().text() + " after the statement");
        return Optional.of(command);
    }

    private static String near(SqlToken t) {
        return t == null ? ", found the end of the statement" : ", found " + t.text();
    }

    private SQLException syntax(String message) {
        return new SQLSyntaxErrorException(message + " in: " + abbreviate(sql), SqlState.SYNTAX_ERROR.code());
    }

    static String abbreviate(String sql) {
        String one = sql.replaceAll("\\s+", " ").trim();
        return one.length() <= 200 ? one : one.substring(0, 197) + "...";
    }
}
