package io.jdbcrepl.sql;

import io.jdbcrepl.dialect.Dialect;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Set;

/**
 * A DDL statement on tables (SPEC 8.3): CREATE/ALTER/DROP/RENAME TABLE, CREATE/DROP INDEX, TRUNCATE,
 * read from its words: its command, and every table or index name in it with where it stands in the
 * SQL, so that a peer can put its own schema in their place. The same reading decides, on the
 * source, whether the statement is replicated, and, on the peer, whether it may run (SPEC 8.7).
 *
 * @param command   e.g. {@code ALTER TABLE}, {@code TRUNCATE TABLE}
 * @param names     the names, in the order written
 * @param unsafe    why a peer must not run it (a query, a function call, a second statement, a
 *                  temporary table, a form this reading does not know), or null
 * @param queryStart CREATE TABLE … AS query: where the query starts in the SQL; else -1
 */
public record SchemaChange(String command, List<Name> names, String unsafe, int queryStart) {

    /** What a name in the statement is. */
    public enum Role {
        /** A table the statement changes, drops, creates or empties. */
        TABLE,
        /** A table's new name (RENAME). */
        NEW_NAME,
        /** A table a foreign key references. */
        REFERENCED,
        /** An index (CREATE/DROP INDEX); its table is a TABLE name when the statement names it. */
        INDEX
    }

    /** A name as written and its place in the SQL ({@code start} inclusive, {@code end} exclusive). */
    public record Name(Role role, TableRef ref, int start, int end) {
    }

    public SchemaChange {
        names = List.copyOf(names);
    }

    /** The tables the statement changes (role TABLE). */
    public List<TableRef> tables() {
        return names.stream().filter(n -> n.role() == Role.TABLE).map(Name::ref).toList();
    }

    /** New names given by a rename. */
    public List<TableRef> newNames() {
        return names.stream().filter(n -> n.role() == Role.NEW_NAME).map(Name::ref).toList();
    }

    /** The index a DROP INDEX names, or null. */
    public TableRef index() {
        return names.stream().filter(n -> n.role() == Role.INDEX).map(Name::ref).findFirst().orElse(null);
    }

    public boolean truncate() {
        return command.equals("TRUNCATE TABLE");
    }

    /** Cheap: whether the first word is one a table DDL starts with (CREATE, ALTER, DROP, RENAME, TRUNCATE). */
    public static boolean mayBe(String sql) {
        int p = 0;
        int n = sql.length();
        while (p < n && (Character.isWhitespace(sql.charAt(p)) || sql.charAt(p) == '(')) p++;
        int end = p;
        while (end < n && Character.isLetter(sql.charAt(end))) end++;
        String word = sql.substring(p, end).toUpperCase(Locale.ROOT);
        return word.equals("CREATE") || word.equals("ALTER") || word.equals("DROP") || word.equals("RENAME")
                || word.equals("TRUNCATE") || (p < n && sql.startsWith("/*", p)) || (p < n && sql.startsWith("--", p));
    }

    /** The statement's reading, or null when it is not DDL on tables (a view, a sequence, a function, a query…). */
    public static SchemaChange of(String sql, Dialect dialect) {
        return new Reader(SqlToken.read(sql, dialect)).read();
    }

    /** Words a table DDL may put right before "(" that are not function calls. */
    private static final Set<String> NOT_CALLS = Set.of(
            // types with a length, precision or list
            "VARCHAR", "CHAR", "CHARACTER", "VARYING", "NCHAR", "NVARCHAR", "VARCHAR2", "NUMERIC", "DECIMAL", "DEC",
            "NUMBER", "FLOAT", "DOUBLE", "REAL", "PRECISION", "TIMESTAMP", "TIME", "DATETIME", "INTERVAL", "BIT",
            "VARBINARY", "BINARY", "ENUM", "SET", "INT", "INTEGER", "BIGINT", "SMALLINT", "TINYINT", "MEDIUMINT",
            "YEAR", "TEXT", "BLOB", "CLOB", "VARBIT", "ZONE", "IDENTITY", "GEOMETRY", "JSON",
            // clauses followed by a column list or an expression
            "KEY", "INDEX", "UNIQUE", "PRIMARY", "CHECK", "IN", "INCLUDE", "AS", "ON", "USING", "WITH", "FOREIGN", "FROM",
            "SELECT", "WHERE", "EXCEPT", "UNION", "INTERSECT",
            "BY", "DEFAULT", "COLUMNS", "COLUMN", "TABLE", "NOT", "AND", "OR", "ADD", "CONSTRAINT", "VALUES",
            "BTREE", "HASH", "GIN", "GIST", "BRIN", "SPGIST", "FULLTEXT", "SPATIAL", "ALL", "NULLS", "STORED",
            "VIRTUAL", "GENERATED", "ALWAYS", "NOCYCLE", "CYCLE", "START", "INCREMENT", "MINVALUE", "MAXVALUE",
            "CACHE", "RESTART", "OVERLAPS", "EXISTS", "IS", "BETWEEN", "LIKE", "ARRAY",
            // functions that read nothing and change nothing
            "NOW", "CURRENT_TIMESTAMP", "CURRENT_DATE", "CURRENT_TIME", "LOCALTIMESTAMP", "LOCALTIME", "NEXTVAL",
            "GEN_RANDOM_UUID", "UUID", "RANDOM_UUID", "LOWER", "UPPER", "LENGTH", "CHAR_LENGTH", "CHARACTER_LENGTH",
            "OCTET_LENGTH", "COALESCE", "NULLIF", "ABS", "ROUND", "TRIM", "JSON_VALID", "UTC_TIMESTAMP", "SYSDATE",
            "CAST", "BTRIM", "LTRIM", "RTRIM", "MOD", "GREATEST", "LEAST", "SUBSTRING", "SUBSTR", "POSITION",
            "EXTRACT", "DATE_TRUNC", "CURDATE", "CURTIME", "UNIX_TIMESTAMP", "CONCAT");

    private static final class Reader {
        private final List<SqlToken> t;
        private int i;
        private final List<Name> names = new ArrayList<>();
        private String unsafe;
        private int queryStart = -1;

        Reader(List<SqlToken> tokens) {
            this.t = tokens;
        }

        private boolean at(String... words) {
            if (i >= t.size()) return false;
            for (String w : words) {
                if (t.get(i).is(w)) return true;
            }
            return false;
        }

        private boolean accept(String... words) {
            if (!at(words)) return false;
            i++;
            return true;
        }

        private void skipAll(String... words) {
            while (accept(words)) { }
        }

        /** A possibly qualified name at i, recorded with {@code role}; false when there is none. */
        private boolean name(Role role) {
            if (i >= t.size() || !t.get(i).isName()) return false;
            int first = i;
            List<String> parts = new ArrayList<>();
            parts.add(t.get(i).text());
            i++;
            while (i + 1 < t.size() && t.get(i).is(".") && t.get(i + 1).isName()) {
                parts.add(t.get(i + 1).text());
                i += 2;
            }
            int start = t.get(first).start();
            SqlToken last = t.get(i - 1);
            int end = last.start() + last.text().length();
            names.add(new Name(role, TableRef.of(parts, null, null), start, end));
            return true;
        }

        SchemaChange read() {
            String command;
            if (accept("CREATE")) {
                accept("OR");
                accept("REPLACE");
                if (at("GLOBAL", "LOCAL", "TEMPORARY", "TEMP")) return null; // temporary tables are the session's own
                skipAll("UNLOGGED", "CACHED", "MEMORY");
                if (accept("TABLE")) {
                    command = "CREATE TABLE";
                    ifExists();
                    if (!name(Role.TABLE)) return null;
                    if (at("LIKE")) unsafe = "CREATE TABLE … LIKE copies a definition from elsewhere";
                } else {
                    accept("UNIQUE");
                    skipAll("FULLTEXT", "SPATIAL");
                    if (!accept("INDEX")) return null;
                    command = "CREATE INDEX";
                    if (accept("CONCURRENTLY")) unsafe = "CONCURRENTLY cannot run inside the transaction that logs it";
                    ifExists();
                    if (!at("ON")) name(Role.INDEX);
                    if (!accept("ON")) return null;
                    accept("ONLY");
                    if (!name(Role.TABLE)) return null;
                }
            } else if (accept("ALTER")) {
                skipAll("ONLINE", "IGNORE");
                if (!accept("TABLE")) return null;
                command = "ALTER TABLE";
                ifExists();
                accept("ONLY");
                if (!name(Role.TABLE)) return null;
            } else if (accept("DROP")) {
                if (at("TEMPORARY")) return null;
                if (accept("TABLE")) {
                    command = "DROP TABLE";
                    ifExists();
                    if (!names(Role.TABLE)) return null;
                } else if (accept("INDEX")) {
                    command = "DROP INDEX";
                    accept("CONCURRENTLY");
                    ifExists();
                    if (!name(Role.INDEX)) return null;
                    if (accept("ON") && !name(Role.TABLE)) return null;
                } else {
                    return null;
                }
            } else if (accept("RENAME")) {
                if (!accept("TABLE")) return null;
                command = "RENAME TABLE";
                do {
                    if (!name(Role.TABLE) || !accept("TO") || !name(Role.NEW_NAME)) return null;
                } while (accept(","));
            } else if (accept("TRUNCATE")) {
                command = "TRUNCATE TABLE";
                accept("TABLE");
                accept("ONLY");
                if (!names(Role.TABLE)) return null;
            } else {
                return null;
            }
            rest(command);
            return new SchemaChange(command, names, unsafe, queryStart);
        }

        private void ifExists() {
            if (at("IF")) {
                accept("IF");
                accept("NOT");
                accept("EXISTS");
            }
        }

        private boolean names(Role role) {
            do {
                if (!name(role)) return false;
                accept("*");
            } while (accept(","));
            return true;
        }

        /** The rest: referenced tables, renames, function calls and a second statement. */
        private void rest(String command) {
            int depth = 0;
            while (i < t.size()) {
                SqlToken token = t.get(i);
                if (token.is("(")) depth++;
                if (token.is(")")) depth--;
                if (token.is(";")) {
                    if (i + 1 < t.size()) unsafe = "it is more than one statement";
                    i++;
                    continue;
                }
                if (command.equals("CREATE TABLE") && depth == 0 && token.is("AS") && i + 1 < t.size()
                        && (t.get(i + 1).is("SELECT") || t.get(i + 1).is("WITH") || t.get(i + 1).is("("))) {
                    queryStart = t.get(i + 1).start();
                }
                if (token.is("REFERENCES")) {
                    i++;
                    name(Role.REFERENCED);
                    continue;
                }
                if (command.equals("ALTER TABLE") && depth == 0 && token.is("RENAME")) {
                    i++;
                    if (accept("TO", "AS")) {
                        name(Role.NEW_NAME); // RENAME TO n
                    } else if (!at("COLUMN", "INDEX", "KEY", "CONSTRAINT")
                            && !(i + 1 < t.size() && t.get(i + 1).is("TO"))) {
                        name(Role.NEW_NAME); // MariaDB: RENAME n; RENAME a TO b is a column
                    }
                    continue;
                }
                // a query of constants (Flyway's history table on H2: CREATE TABLE … AS SELECT -1, …) gives
                // every node the same rows; one reading a table would copy rows the peers may not have
                if (token.is("FROM") && i + 1 < t.size() && t.get(i + 1).isName() && !t.get(i + 1).is("DUAL")
                        && unsafe == null) {
                    unsafe = "its query reads " + t.get(i + 1).text() + ", whose rows a peer may not have";
                }
                if (token.isName() && i + 1 < t.size() && t.get(i + 1).is("(")
                        && !NOT_CALLS.contains(token.text().toUpperCase(Locale.ROOT)) && !namesBefore(i) && unsafe == null) {
                    unsafe = "it calls " + token.text() + "(…), which a peer would run with its apply user's rights";
                }
                i++;
            }
        }

        /** Whether token {@code k} ends a name just recorded (a table or index name is followed by its column list). */
        private boolean namesBefore(int k) {
            int end = t.get(k).start() + t.get(k).text().length();
            for (Name n : names) {
                if (n.end() == end) return true;
            }
            // a constraint or index name: CONSTRAINT c CHECK (…), KEY k (a), INDEX i (a), UNIQUE u (a)
            return k > 0 && (t.get(k - 1).is("KEY") || t.get(k - 1).is("INDEX") || t.get(k - 1).is("UNIQUE")
                    || t.get(k - 1).is("CONSTRAINT"));
        }
    }
}
