package io.jdbcrepl.ddl;

import io.jdbcrepl.ddl.TableDdl.Identity;
import io.jdbcrepl.ddl.Ddl.Action;
import io.jdbcrepl.ddl.Ddl.Column;
import io.jdbcrepl.ddl.Ddl.Constraint;
import io.jdbcrepl.ddl.Ddl.ConstraintKind;
import io.jdbcrepl.ddl.Ddl.Default;
import io.jdbcrepl.ddl.Ddl.SourceType;
import io.jdbcrepl.ddl.Ddl.TableName;
import io.jdbcrepl.dialect.Dialect;
import io.jdbcrepl.sql.SqlToken;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.stream.Collectors;

/**
 * Reads one DDL statement of the forms {@link DdlTranslation} translates, as written on the
 * {@code from} database, into {@link Ddl}; any other form, clause or type is refused, naming it.
 * Reads the tokens as the database does ({@link SqlToken}: its strings, quoted names and comments),
 * in the way of {@code MviewParser}: JSqlParser keeps column options and ALTER clauses as loose
 * words and does not read several of these forms (MySQL's {@code DROP FOREIGN KEY}, {@code SET DATA TYPE}),
 * so a refusal could not name the clause.
 */
final class DdlReader {

    private static final Set<String> TABLE_OPTIONS = Set.of("ENGINE", "CHARSET", "CHARACTER", "COLLATE", "COMMENT",
            "AUTO_INCREMENT", "ROW_FORMAT");
    private static final Set<String> CURRENT_TIME = Set.of("CURRENT_TIMESTAMP", "CURRENT_DATE", "CURRENT_TIME",
            "LOCALTIMESTAMP", "LOCALTIME", "NOW", "SYSDATE");

    private final Dialect from;
    private final Dialect to;
    private final List<SqlToken> tokens;
    private int pos;

    private DdlReader(String sql, Dialect from, Dialect to) {
        this.from = from;
        this.to = to;
        List<SqlToken> all = new ArrayList<>(SqlToken.read(sql, from));
        if (!all.isEmpty() && all.get(all.size() - 1).is(";")) all.remove(all.size() - 1);
        this.tokens = all;
    }

    /** The statement; {@code to} is named in refusals. */
    static Ddl read(String sql, Dialect from, Dialect to) throws UntranslatableDdlException {
        DdlReader r = new DdlReader(sql, from, to);
        for (SqlToken t : r.tokens) {
            if (!t.closed()) throw r.refuse("an unterminated " + t.text().charAt(0));
        }
        Ddl ddl = r.statement();
        if (r.pos < r.tokens.size()) throw r.refuse(r.rest());
        return ddl;
    }

    private Ddl statement() throws UntranslatableDdlException {
        if (accept("CREATE")) {
            boolean unique = accept("UNIQUE");
            if (accept("INDEX")) return createIndex(unique);
            if (!unique && accept("TABLE")) return createTable();
            throw refuse("CREATE " + (unique ? "UNIQUE " : "") + words(2));
        }
        if (accept("ALTER")) {
            expect("TABLE");
            return alterTable();
        }
        if (accept("DROP")) {
            if (accept("TABLE")) return dropTable();
            if (accept("INDEX")) return dropIndex();
            throw refuse("DROP " + words(1));
        }
        if (accept("RENAME")) {
            expect("TABLE");
            TableName a = tableName();
            expect("TO");
            Ddl rename = new Ddl.RenameTable(a, tableName());
            if (peek(",")) throw refuse("RENAME TABLE of several tables");
            return rename;
        }
        if (accept("TRUNCATE")) return truncate();
        throw refuse("the statement " + words(2));
    }

    // ---- CREATE TABLE

    private Ddl createTable() throws UntranslatableDdlException {
        boolean ifNotExists = acceptAll("IF", "NOT", "EXISTS");
        TableName table = tableName();
        if (!peek("(")) throw refuse("CREATE TABLE … " + words(2));
        expect("(");
        List<Column> columns = new ArrayList<>();
        List<Constraint> constraints = new ArrayList<>();
        do {
            if (peekConstraint()) constraints.add(tableConstraint());
            else if (peek("KEY") || peek("INDEX") || peek("FULLTEXT") || peek("SPATIAL") || peek("LIKE")) {
                throw refuse(words(1) + " in CREATE TABLE" + (peek("LIKE") ? "" : " (create the index with CREATE INDEX)"));
            } else columns.add(column(name()));
        } while (accept(","));
        expect(")");
        tableOptions();
        return new Ddl.CreateTable(table, ifNotExists, columns, constraints);
    }

    /** MySQL's table options, which mean nothing elsewhere: ENGINE=, CHARSET=, COLLATE=, COMMENT=, AUTO_INCREMENT=, ROW_FORMAT=. */
    private void tableOptions() throws UntranslatableDdlException {
        while (pos < tokens.size()) {
            accept(",");
            accept("DEFAULT");
            String option = tokens.get(pos).text().toUpperCase(Locale.ROOT);
            if (!TABLE_OPTIONS.contains(option)) throw refuse("the table clause " + rest());
            pos++;
            if (option.equals("CHARACTER")) expect("SET");
            accept("=");
            next();
        }
    }

    private boolean peekConstraint() {
        return peek("CONSTRAINT") || peek("PRIMARY") || peek("UNIQUE") || peek("FOREIGN") || peek("CHECK");
    }

    /** [CONSTRAINT name] PRIMARY KEY (…) | UNIQUE [KEY|INDEX] [name] (…) | FOREIGN KEY [name] (…) REFERENCES … | CHECK (…). */
    private Constraint tableConstraint() throws UntranslatableDdlException {
        String name = accept("CONSTRAINT") && !peekConstraint() ? name() : null;
        if (accept("PRIMARY")) {
            expect("KEY");
            return constraint(name, ConstraintKind.PRIMARY_KEY, indexColumns());
        }
        if (accept("UNIQUE")) {
            if (!accept("KEY")) accept("INDEX");
            if (!peek("(")) name = name();
            return constraint(name, ConstraintKind.UNIQUE, indexColumns());
        }
        if (accept("FOREIGN")) {
            expect("KEY");
            if (!peek("(")) name = name();
            List<String> columns = nameList();
            expect("REFERENCES");
            return references(name, columns);
        }
        expect("CHECK");
        return new Constraint(name, ConstraintKind.CHECK, List.of(), null, List.of(), null, null, parenthesized());
    }

    private static Constraint constraint(String name, ConstraintKind kind, List<String> columns) {
        return new Constraint(name, kind, columns, null, List.of(), null, null, List.of());
    }

    /** After REFERENCES: table [(columns)] [ON DELETE action] [ON UPDATE action]. */
    private Constraint references(String name, List<String> columns) throws UntranslatableDdlException {
        TableName table = tableName();
        List<String> referenced = peek("(") ? nameList() : List.of();
        String onDelete = null;
        String onUpdate = null;
        while (accept("ON")) {
            if (accept("DELETE")) onDelete = referentialAction();
            else {
                expect("UPDATE");
                onUpdate = referentialAction();
            }
        }
        if (peek("MATCH") || peek("DEFERRABLE") || peek("NOT") && peekAt(1, "DEFERRABLE") || peek("INITIALLY")) {
            throw refuse("the foreign key option " + words(2));
        }
        return new Constraint(name, ConstraintKind.FOREIGN_KEY, columns, table, referenced, onDelete, onUpdate, List.of());
    }

    private String referentialAction() throws UntranslatableDdlException {
        if (accept("CASCADE")) return "CASCADE";
        if (accept("RESTRICT")) return "RESTRICT";
        if (acceptAll("NO", "ACTION")) return "NO ACTION";
        expect("SET");
        if (accept("NULL")) return "SET NULL";
        expect("DEFAULT");
        return "SET DEFAULT";
    }

    /** A column's name, type and options. */
    private Column column(String name) throws UntranslatableDdlException {
        SourceType type = type();
        Boolean notNull = null;
        Default value = null;
        Identity identity = type.identity();
        List<Constraint> inline = new ArrayList<>();
        while (pos < tokens.size() && !peek(",") && !peek(")")) {
            String constraintName = accept("CONSTRAINT") ? name() : null;
            if (acceptAll("NOT", "NULL")) notNull = true;
            else if (accept("NULL")) notNull = false;
            else if (accept("DEFAULT")) value = defaultValue();
            else if (accept("AUTO_INCREMENT")) identity = Identity.BY_DEFAULT;
            else if (accept("PRIMARY")) {
                expect("KEY");
                inline.add(constraint(constraintName, ConstraintKind.PRIMARY_KEY, List.of(name)));
            } else if (accept("KEY")) {
                inline.add(constraint(constraintName, ConstraintKind.PRIMARY_KEY, List.of(name))); // MySQL: KEY alone is PRIMARY KEY
            } else if (accept("UNIQUE")) {
                accept("KEY");
                inline.add(constraint(constraintName, ConstraintKind.UNIQUE, List.of(name)));
            } else if (accept("REFERENCES")) {
                inline.add(references(constraintName, List.of(name)));
            } else if (accept("CHECK")) {
                inline.add(new Constraint(constraintName, ConstraintKind.CHECK, List.of(), null, List.of(), null, null, parenthesized()));
            } else if (peek("GENERATED") && (peekAt(2, "DEFAULT") || peekAt(3, "IDENTITY"))) {
                pos++;
                identity = accept("ALWAYS") ? Identity.ALWAYS : Identity.BY_DEFAULT;
                acceptAll("BY", "DEFAULT");
                if (accept("ON")) throw refuse("GENERATED BY DEFAULT ON NULL");
                expect("AS");
                expect("IDENTITY");
                if (peek("(")) throw refuse("the identity options " + words(1) + "…)");
            } else if (peek("CHARACTER") && peekAt(1, "SET") || peek("CHARSET")) {
                if (!acceptAll("CHARACTER", "SET")) pos++;
                name(); // all of them store UTF-8 text (the driver's tables are utf8mb4)
            } else if (accept("COMMENT")) {
                expectKind(SqlToken.Kind.STRING);
            } else if (peek("GENERATED") || peek("AS")) {
                throw refuse("the generated column " + quoteSource(name) + " (" + words(4) + " …)");
            } else {
                throw refuse("the column option " + words(2) + " of " + quoteSource(name));
            }
        }
        return new Column(name, type, notNull, value, identity, inline);
    }

    /** DEFAULT: a literal (a PostgreSQL cast of it dropped), NULL, or the current date or time; no other expression. */
    private Default defaultValue() throws UntranslatableDdlException {
        int start = pos;
        boolean parenthesized = accept("(");
        Default value;
        SqlToken t = next();
        String word = t.kind() == SqlToken.Kind.WORD ? t.text().toUpperCase(Locale.ROOT) : "";
        if (word.equals("NULL")) value = new Ddl.NullDefault();
        else if (CURRENT_TIME.contains(word)) {
            if (accept("(")) {
                if (!accept(")")) {
                    expectKind(SqlToken.Kind.NUMBER);
                    expect(")");
                }
            }
            value = new Ddl.CurrentTime();
        } else if (t.kind() == SqlToken.Kind.STRING || t.kind() == SqlToken.Kind.NUMBER || word.equals("TRUE") || word.equals("FALSE")) {
            value = new Ddl.Literal(List.of(t));
        } else if ((t.is("-") || t.is("+")) && pos < tokens.size() && tokens.get(pos).kind() == SqlToken.Kind.NUMBER) {
            value = new Ddl.Literal(List.of(t, next()));
        } else {
            pos = start;
            throw refuse("the DEFAULT expression " + words(4));
        }
        if (acceptAll(":", ":")) type(); // 'a'::character varying, as PostgreSQL writes a literal's type
        if (parenthesized) expect(")");
        return value;
    }

    /** A column type: its words, with a length, precision or fraction, mapped to the portable type the join reads. */
    private SourceType type() throws UntranslatableDdlException {
        int start = pos;
        String base = word().toLowerCase(Locale.ROOT);
        List<Integer> args = new ArrayList<>();
        String tail = "";
        while (true) {
            if (peek("(") && args.isEmpty()) {
                pos++;
                do {
                    SqlToken arg = next();
                    if (arg.kind() != SqlToken.Kind.NUMBER) throw refuse("the type " + text(start, pos + 3) + " …");
                    args.add(Integer.parseInt(arg.text()));
                } while (accept(","));
                if (peek("CHAR") || peek("BYTE")) pos++; // varchar(10 char)
                expect(")");
            } else if (accept("PRECISION")) base += " precision";
            else if (accept("VARYING")) base += " varying";
            else if (acceptAll("LARGE", "OBJECT")) base += " large object";
            else if (acceptAll("WITH", "TIME", "ZONE")) tail = " with time zone";
            else if (acceptAll("WITHOUT", "TIME", "ZONE")) tail = "";
            else if (accept("UNSIGNED")) tail = " unsigned";
            else if (accept("SIGNED")) tail = "";
            else break;
        }
        if (peek("[") || peek("ARRAY") || peek("ZEROFILL")) throw refuse("the type " + text(start, pos + 1));
        String text = text(start, pos);
        SourceType type = SourceTypes.of(base, tail, args, text, from);
        if (type == null) throw refuse("the type " + text);
        return type;
    }

    // ---- ALTER TABLE

    private Ddl alterTable() throws UntranslatableDdlException {
        boolean ifExists = acceptAll("IF", "EXISTS");
        if (accept("ONLY")) { /* PostgreSQL: not the inheriting tables, which are not translated anyway */ }
        TableName table = tableName();
        List<Action> actions = new ArrayList<>();
        do {
            alterAction(actions);
        } while (accept(","));
        if (actions.size() == 1 && actions.get(0) instanceof Ddl.RenameTo r) return new Ddl.RenameTable(table, r.name());
        return new Ddl.AlterTable(table, ifExists, actions);
    }

    private void alterAction(List<Action> actions) throws UntranslatableDdlException {
        int start = pos;
        if (accept("ADD")) {
            if (peekConstraint()) {
                actions.add(new Ddl.AddConstraint(tableConstraint()));
            } else if (peek("INDEX") || peek("KEY") || peek("FULLTEXT") || peek("SPATIAL")) {
                throw refuse("ALTER TABLE … ADD " + words(1) + " (create the index with CREATE INDEX)");
            } else if (accept("(")) { // MySQL, H2: ADD (a …, b …)
                do {
                    actions.add(new Ddl.AddColumn(column(name()), false));
                } while (accept(","));
                expect(")");
            } else {
                accept("COLUMN");
                boolean ifNotExists = acceptAll("IF", "NOT", "EXISTS");
                actions.add(new Ddl.AddColumn(column(name()), ifNotExists));
            }
        } else if (accept("DROP")) {
            if (acceptAll("PRIMARY", "KEY")) actions.add(new Ddl.DropConstraint(null, ConstraintKind.PRIMARY_KEY));
            else if (acceptAll("FOREIGN", "KEY")) actions.add(new Ddl.DropConstraint(name(), ConstraintKind.FOREIGN_KEY));
            else if (accept("CHECK")) actions.add(new Ddl.DropConstraint(name(), ConstraintKind.CHECK));
            else if (accept("CONSTRAINT")) {
                if (peek("IF")) throw refuse("DROP CONSTRAINT IF EXISTS");
                actions.add(new Ddl.DropConstraint(name(), null));
            } else if (peek("INDEX") || peek("KEY")) {
                throw refuse("ALTER TABLE … DROP " + words(2) + " (whether it is a unique constraint or an index the statement does not say)");
            } else {
                accept("COLUMN");
                boolean ifExists = acceptAll("IF", "EXISTS");
                actions.add(new Ddl.DropColumn(name(), ifExists));
            }
            if (peek("CASCADE")) throw refuse(text(start, pos + 1));
            accept("RESTRICT");
        } else if (accept("RENAME")) {
            if (accept("COLUMN")) {
                String a = name();
                expect("TO");
                actions.add(new Ddl.RenameColumn(a, name()));
            } else if (peek("CONSTRAINT") || peek("INDEX") || peek("KEY")) {
                throw refuse("RENAME " + words(1));
            } else {
                if (!accept("TO")) accept("AS");
                actions.add(new Ddl.RenameTo(tableName()));
            }
        } else if (accept("ALTER")) {
            accept("COLUMN");
            String column = name();
            if (acceptAll("SET", "DEFAULT")) actions.add(new Ddl.SetDefault(column, defaultValue()));
            else if (acceptAll("DROP", "DEFAULT")) actions.add(new Ddl.SetDefault(column, null));
            else if (acceptAll("SET", "NOT", "NULL")) actions.add(new Ddl.SetNotNull(column, true));
            else if (acceptAll("DROP", "NOT", "NULL")) actions.add(new Ddl.SetNotNull(column, false));
            else if (acceptAll("SET", "DATA", "TYPE") || accept("TYPE")) {
                actions.add(new Ddl.SetType(column, type()));
                if (peek("USING") || peek("COLLATE")) throw refuse("ALTER COLUMN … TYPE … " + words(1));
            } else if (acceptAll("RENAME", "TO")) actions.add(new Ddl.RenameColumn(column, name())); // H2
            else if (peek("SET") || peek("DROP") || peek("ADD") || peek("RESTART")) {
                throw refuse("ALTER COLUMN " + quoteSource(column) + " " + words(3));
            } else actions.add(new Ddl.Redefine(column, column(column))); // H2: ALTER COLUMN c <definition>
        } else if (accept("MODIFY")) {
            accept("COLUMN");
            String column = name();
            actions.add(new Ddl.Redefine(column, column(column)));
        } else if (accept("CHANGE")) {
            accept("COLUMN");
            String column = name();
            actions.add(new Ddl.Redefine(column, column(name())));
        } else {
            throw refuse("ALTER TABLE … " + words(3));
        }
    }

    // ---- DROP TABLE, CREATE/DROP INDEX, TRUNCATE

    private Ddl dropTable() throws UntranslatableDdlException {
        boolean ifExists = acceptAll("IF", "EXISTS");
        List<TableName> tables = new ArrayList<>();
        do {
            tables.add(tableName());
        } while (accept(","));
        boolean cascade = accept("CASCADE");
        if (!cascade) accept("RESTRICT");
        return new Ddl.DropTable(tables, ifExists, cascade);
    }

    private Ddl createIndex(boolean unique) throws UntranslatableDdlException {
        if (peek("CONCURRENTLY")) throw refuse("CREATE INDEX CONCURRENTLY");
        boolean ifNotExists = acceptAll("IF", "NOT", "EXISTS");
        if (peek("ON")) throw refuse("an index without a name");
        String name = name();
        indexMethod(); // MySQL: before ON
        expect("ON");
        if (accept("ONLY")) throw refuse("CREATE INDEX … ON ONLY");
        TableName table = tableName();
        indexMethod();
        List<String> columns = new ArrayList<>();
        List<Boolean> descending = new ArrayList<>();
        expect("(");
        do {
            if (peek("(") || !peekAt(1, ",") && !peekAt(1, ")") && !peekAt(1, "ASC") && !peekAt(1, "DESC")) {
                throw refuse("the index on an expression or a part of a column");
            }
            columns.add(name());
            descending.add(accept("DESC"));
            if (!descending.get(descending.size() - 1)) accept("ASC");
        } while (accept(","));
        expect(")");
        indexMethod();
        if (peek("WHERE") || peek("INCLUDE") || peek("WITH") || peek("TABLESPACE") || peek("NULLS")) {
            throw refuse("the index clause " + words(1) + (peek("WHERE") ? " (a partial index)" : ""));
        }
        return new Ddl.CreateIndex(name, table, unique, ifNotExists, columns, descending);
    }

    /** USING btree, the default everywhere, is dropped; another method refused. */
    private void indexMethod() throws UntranslatableDdlException {
        if (accept("USING") && !accept("BTREE")) throw refuse("the index method USING " + words(1));
    }

    private Ddl dropIndex() throws UntranslatableDdlException {
        if (peek("CONCURRENTLY")) throw refuse("DROP INDEX CONCURRENTLY");
        boolean ifExists = acceptAll("IF", "EXISTS");
        TableName index = tableName();
        if (index.schema() != null) throw refuse("an index named with its schema");
        TableName table = accept("ON") ? tableName() : null;
        if (peek(",")) throw refuse("DROP INDEX of several indexes");
        if (peek("CASCADE")) throw refuse("DROP INDEX … CASCADE");
        accept("RESTRICT");
        return new Ddl.DropIndex(index.table(), table, ifExists);
    }

    private Ddl truncate() throws UntranslatableDdlException {
        accept("TABLE");
        if (accept("ONLY")) { /* no inheritance elsewhere */ }
        List<TableName> tables = new ArrayList<>();
        do {
            tables.add(tableName());
        } while (accept(","));
        boolean restart = acceptAll("RESTART", "IDENTITY");
        if (!restart) acceptAll("CONTINUE", "IDENTITY");
        boolean cascade = accept("CASCADE");
        if (!cascade) accept("RESTRICT");
        return new Ddl.Truncate(tables, cascade, restart);
    }

    // ---- names and tokens

    private TableName tableName() throws UntranslatableDdlException {
        String first = name();
        if (!accept(".")) return new TableName(null, first);
        String second = name();
        if (peek(".")) throw refuse("a name of three parts");
        return new TableName(first, second);
    }

    private List<String> nameList() throws UntranslatableDdlException {
        expect("(");
        List<String> names = new ArrayList<>();
        do {
            names.add(name());
        } while (accept(","));
        expect(")");
        return names;
    }

    /** A key's columns: names only (no prefix length, no expression); ASC/DESC and USING BTREE dropped. */
    private List<String> indexColumns() throws UntranslatableDdlException {
        indexMethod();
        expect("(");
        List<String> names = new ArrayList<>();
        do {
            names.add(name());
            if (peek("(")) throw refuse("the prefix length " + quoteSource(names.get(names.size() - 1)) + words(3));
            if (!accept("ASC")) accept("DESC");
        } while (accept(","));
        expect(")");
        indexMethod();
        return names;
    }

    /** The tokens inside parentheses (a CHECK's condition), which must balance. */
    private List<SqlToken> parenthesized() throws UntranslatableDdlException {
        expect("(");
        int start = pos;
        int depth = 1;
        while (depth > 0) {
            SqlToken t = next();
            if (t.is("(")) depth++;
            else if (t.is(")")) depth--;
        }
        return List.copyOf(tokens.subList(start, pos - 1));
    }

    /** An identifier: its stored name on the source (unquoted: folded as the source folds). */
    private String name() throws UntranslatableDdlException {
        SqlToken t = next();
        if (!t.isName()) throw refuse("'" + t.text() + "' where a name belongs");
        return t.kind() == SqlToken.Kind.QUOTED ? t.value() : from.fold(t.text(), false);
    }

    private String word() throws UntranslatableDdlException {
        SqlToken t = next();
        if (t.kind() != SqlToken.Kind.WORD) throw refuse("'" + t.text() + "' where a word belongs");
        return t.text();
    }

    private String quoteSource(String stored) {
        return from.quote(stored);
    }

    private SqlToken next() throws UntranslatableDdlException {
        if (pos >= tokens.size()) throw refuse("the statement's end where more belongs");
        return tokens.get(pos++);
    }

    private SqlToken expectKind(SqlToken.Kind kind) throws UntranslatableDdlException {
        SqlToken t = next();
        if (t.kind() != kind) throw refuse("'" + t.text() + "' where a " + kind.name().toLowerCase(Locale.ROOT) + " belongs");
        return t;
    }

    private void expect(String word) throws UntranslatableDdlException {
        if (!accept(word)) throw refuse(pos < tokens.size() ? "'" + tokens.get(pos).text() + "' where " + word + " belongs"
                : "the statement's end where " + word + " belongs");
    }

    private boolean peek(String word) {
        return peekAt(0, word);
    }

    private boolean peekAt(int ahead, String word) {
        return pos + ahead < tokens.size() && tokens.get(pos + ahead).is(word);
    }

    private boolean accept(String word) {
        if (!peek(word)) return false;
        pos++;
        return true;
    }

    /** Accepts the words in sequence, or none of them. */
    private boolean acceptAll(String... words) {
        for (int i = 0; i < words.length; i++) {
            if (!peekAt(i, words[i])) return false;
        }
        pos += words.length;
        return true;
    }

    /** Up to {@code count} tokens from here, as written: what a refusal names. */
    private String words(int count) {
        return text(pos, Math.min(tokens.size(), pos + count));
    }

    private String rest() {
        return text(pos, tokens.size());
    }

    private String text(int start, int end) {
        return tokens.subList(start, Math.min(end, tokens.size())).stream().map(SqlToken::text).collect(Collectors.joining(" "));
    }

    private UntranslatableDdlException refuse(String part) {
        return new UntranslatableDdlException(part, from, to);
    }
}
