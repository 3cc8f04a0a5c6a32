package io.jdbcrepl.ddl;

import io.jdbcrepl.dialect.Dialect;

import java.util.ArrayList;
import java.util.List;

/**
 * A DDL statement run on one database, as a peer of another database runs it (SPEC 8.3). A peer of
 * the same family (MariaDB and MySQL are one) runs the text as it is; another database gets the
 * common forms translated: CREATE TABLE (columns, NOT NULL, DEFAULT literal or current time, PRIMARY
 * KEY, UNIQUE, FOREIGN KEY, CHECK; MySQL's table options dropped), ALTER TABLE (ADD/DROP COLUMN,
 * RENAME COLUMN, ALTER COLUMN SET/DROP DEFAULT, SET/DROP NOT NULL, TYPE ⇄ MODIFY/CHANGE,
 * ADD/DROP CONSTRAINT, RENAME TO), DROP TABLE, RENAME TABLE, CREATE/DROP INDEX, TRUNCATE. Types
 * are mapped as the join maps them. Anything else is refused, naming the part (docs/ddl.md).
 */
public final class DdlTranslation {

    private DdlTranslation() {
    }

    /**
     * {@code sql}, a single DDL statement as run on a {@code from} database, as {@code to} runs it.
     * Same vendor family (mariadb/mysql count as one): returned unchanged.
     *
     * @throws UntranslatableDdlException naming the part of the statement that cannot be translated
     */
    public static String translate(String sql, Dialect from, Dialect to) throws UntranslatableDdlException {
        return translate(sql, from, to, null);
    }

    /**
     * As {@link #translate(String, Dialect, Dialect)}, for a {@code DROP INDEX} that does not name its
     * table (PostgreSQL's and H2's) toward MySQL/MariaDB, which name it ({@code DROP INDEX i ON t}).
     *
     * @param tableOfIndex the table of the index a DROP INDEX drops: its stored name on {@code from}
     *                     (as its catalog holds it, unquoted), or null; any other statement ignores it
     */
    public static String translate(String sql, Dialect from, Dialect to, String tableOfIndex) throws UntranslatableDdlException {
        if (sameFamily(from, to)) return sql;
        Ddl ddl = DdlReader.read(sql, from, to);
        if (ddl instanceof Ddl.DropIndex d && d.table() == null && tableOfIndex != null) {
            ddl = new Ddl.DropIndex(d.name(), new Ddl.TableName(null, tableOfIndex), d.ifExists());
        }
        return new DdlWriter(from, to).write(ddl);
    }

    /**
     * The tables a statement of the translated forms acts on, as stored names on {@code dialect}
     * ({@code schema.table} when it names the schema); a rename's new name last. Empty for a
     * DROP INDEX, which names no table (PostgreSQL, H2).
     *
     * @throws UntranslatableDdlException for a statement of another form
     */
    public static List<String> tables(String sql, Dialect dialect) throws UntranslatableDdlException {
        Ddl ddl = DdlReader.read(sql, dialect, dialect);
        List<Ddl.TableName> names = new ArrayList<>();
        if (ddl instanceof Ddl.CreateTable c) names.add(c.table());
        else if (ddl instanceof Ddl.AlterTable a) {
            names.add(a.table());
            for (Ddl.Action action : a.actions()) {
                if (action instanceof Ddl.RenameTo r) names.add(new Ddl.TableName(a.table().schema(), r.name().table()));
            }
        } else if (ddl instanceof Ddl.DropTable d) names.addAll(d.tables());
        else if (ddl instanceof Ddl.RenameTable r) {
            names.add(r.from());
            names.add(new Ddl.TableName(r.to().schema() != null ? r.to().schema() : r.from().schema(), r.to().table()));
        } else if (ddl instanceof Ddl.CreateIndex i) names.add(i.table());
        else if (ddl instanceof Ddl.DropIndex d && d.table() != null) names.add(d.table());
        else if (ddl instanceof Ddl.Truncate t) names.addAll(t.tables());
        return names.stream().map(n -> n.schema() == null ? n.table() : n.schema() + "." + n.table()).toList();
    }

    /** Whether two databases speak the same DDL: the same dialect, or one extends the other (MariaDB, MySQL). */
    static boolean sameFamily(Dialect a, Dialect b) {
        return a.getClass().isAssignableFrom(b.getClass()) || b.getClass().isAssignableFrom(a.getClass());
    }
}
