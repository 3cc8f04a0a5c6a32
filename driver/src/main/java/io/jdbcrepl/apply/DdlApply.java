package io.jdbcrepl.apply;

import io.jdbcrepl.ddl.DdlSessions;
import io.jdbcrepl.dialect.Dialect;
import io.jdbcrepl.lcr.DdlImage;
import io.jdbcrepl.lcr.RowLcr;
import io.jdbcrepl.sql.SchemaChange;
import io.jdbcrepl.sql.TableRef;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.List;

/**
 * A peer's DDL LCR (SPEC 8.3) made into the statement this node runs. The LCR is input, not orders
 * (SPEC 8.7): its statement must read as one DDL statement on tables, without a query or a function
 * call, every table it changes or creates must be one this node accepts changes for, and the LCR's
 * table must be among them. Names qualified with the source's schema (or unqualified where the
 * source's session was elsewhere) get this node's schema; a peer of another vendor gets the
 * statement translated.
 */
final class DdlApply {

    private final Dialect local;
    private final ApplyTrust trust;
    private final String sourceHomeSchema;
    private final String localHomeSchema;

    DdlApply(Dialect local, ApplyTrust trust, String sourceHomeSchema, String localHomeSchema) {
        this.local = local;
        this.trust = trust;
        this.sourceHomeSchema = sourceHomeSchema;
        this.localHomeSchema = localHomeSchema;
    }

    /** Whether this database commits around DDL, so that a DDL LCR cannot share the apply transaction. */
    static boolean commitsAround(Dialect dialect) {
        return dialect.part(DdlSessions.class).ddlCommits();
    }

    /** The statement to run here; a refusal (42501) or a statement that cannot be translated (0A000) as SQLException. */
    String statement(Connection connection, RowLcr lcr) throws SQLException {
        String sql = DdlImage.get(lcr, DdlImage.STATEMENT);
        String vendor = DdlImage.get(lcr, DdlImage.VENDOR);
        String currentSchema = DdlImage.get(lcr, DdlImage.CURRENT_SCHEMA);
        if (sql == null || vendor == null) throw refused(lcr, "it carries no statement or no vendor");
        Dialect source;
        try {
            source = Dialect.named(vendor);
        } catch (RuntimeException e) {
            throw refused(lcr, "its vendor " + vendor + " is not one this driver knows");
        }
        SchemaChange change = SchemaChange.of(sql, source);
        if (change == null) throw refused(lcr, "its statement is not DDL on a table");
        if (change.unsafe() != null) throw refused(lcr, "its statement may not run here: " + change.unsafe());
        boolean tableNamed = false;
        StringBuilder out = new StringBuilder(sql);
        List<SchemaChange.Name> names = change.names();
        for (int k = names.size() - 1; k >= 0; k--) { // from the end: earlier offsets stay valid
            SchemaChange.Name n = names.get(k);
            TableRef ref = n.ref();
            String schema = ref.schema() != null ? ref.foldedSchema(source) : currentSchema;
            String name = ref.foldedName(source);
            if (n.role() == SchemaChange.Role.TABLE || n.role() == SchemaChange.Role.NEW_NAME) {
                String why = trust.tableRefusal(schema, name);
                if (why != null) throw refused(lcr, why);
                tableNamed |= n.role() == SchemaChange.Role.TABLE && name.equalsIgnoreCase(lcr.objectName());
            }
            String mapped = TableMap.mapSchema(schema, sourceHomeSchema, localHomeSchema);
            if (ref.schema() == null && mapped.equals(localHomeSchema)) continue; // as written
            String qualifier = mapped.equals(localHomeSchema) ? "" : source.quote(mapped) + ".";
            out.replace(n.start(), n.end(), qualifier + (ref.nameQuoted() ? source.quote(ref.name()) : ref.name()));
        }
        if (!tableNamed && change.index() != null && change.tables().isEmpty()) {
            tableNamed = indexOf(connection, lcr, change.index(), source, currentSchema);
        }
        if (!tableNamed) throw refused(lcr, "its statement does not change its table " + lcr.objectName());
        // DROP INDEX i toward MariaDB/MySQL needs the table, which the LCR names
        return io.jdbcrepl.ddl.DdlTranslation.translate(out.toString(), source, local, lcr.objectName());
    }

    /** DROP INDEX without its table: the index must be one of the LCR's table here. */
    private boolean indexOf(Connection connection, RowLcr lcr, TableRef index, Dialect source, String currentSchema)
            throws SQLException {
        String sql = local.part(DdlSessions.class).tableOfIndex();
        if (sql == null) return false;
        String schema = TableMap.mapSchema(index.schema() != null ? index.foldedSchema(source) : currentSchema,
                sourceHomeSchema, localHomeSchema);
        try (PreparedStatement ps = connection.prepareStatement(sql)) {
            ps.setString(1, schema);
            ps.setString(2, local.fold(index.name(), index.nameQuoted()));
            try (ResultSet rs = ps.executeQuery()) {
                return rs.next() && rs.getString(1).equalsIgnoreCase(lcr.objectName());
            }
        }
    }

    private SQLException refused(RowLcr lcr, String why) {
        return new SQLException("DDL LCR for " + (lcr.objectOwner() == null ? "" : lcr.objectOwner() + ".")
                + lcr.objectName() + " from " + lcr.sourceDatabase() + " refused: " + why, ApplyTrust.REFUSED);
    }
}
