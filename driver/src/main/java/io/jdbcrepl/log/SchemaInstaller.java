package io.jdbcrepl.log;

import io.jdbcrepl.dialect.Dialect;
import io.jdbcrepl.config.InstallMode;
import io.jdbcrepl.intercept.SqlState;

import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.Optional;

/**
 * Installs the driver's tables in {@code repl.schema} and keeps them at
 * {@link SchemaVersion#CURRENT}: what {@code repl.install=auto} does when a node is first connected
 * in a JVM, and what the CLI's {@code install} and {@code ReplAdmin.install()} do. Tables at the
 * current version cost one read; missing ones are created; older ones are brought up step by step
 * ({@link SchemaUpgrades}); newer ones, which this driver would misread, are refused.
 */
public final class SchemaInstaller {

    private final Dialect dialect;
    private final ChangeLogSchema tables;
    private final SchemaVersion version;

    public SchemaInstaller(Dialect dialect, ChangeLogSchema tables) {
        this.dialect = dialect;
        this.tables = tables;
        this.version = new SchemaVersion(dialect, tables);
    }

    /**
     * Brings the driver's tables to the current version ({@code auto}), or checks that they are
     * there at it ({@code none}, which changes nothing and names the install command otherwise).
     */
    public void install(Connection connection, InstallMode mode) throws SQLException {
        Integer recorded = version.read(connection);
        if (recorded != null && recorded == SchemaVersion.CURRENT) return;
        if (recorded != null && recorded > SchemaVersion.CURRENT) throw SchemaVersion.newer(tables.schema(), recorded);
        if (mode == InstallMode.NONE) throw notCurrent(connection, recorded);
        boolean autoCommit = connection.getAutoCommit();
        try {
            Optional<String> lock = dialect.part(LogTableSql.class).installLock(tables.schema());
            if (lock.isPresent()) {
                connection.setAutoCommit(false);
                try (Statement s = connection.createStatement()) {
                    s.execute(lock.get());
                }
            }
            DriverSchema.ensure(connection, dialect, tables.schema(), mode); // its message names the schema to create
            bringUp(connection, recorded != null ? recorded
                    : exists(connection, "repl_log") ? SchemaVersion.UNRECORDED : SchemaVersion.NOTHING);
            if (!connection.getAutoCommit()) connection.commit();
        } catch (SQLException e) {
            if (!connection.getAutoCommit()) connection.rollback();
            throw e;
        } finally {
            connection.setAutoCommit(autoCommit);
        }
    }

    /** With {@code repl.install=none}: what is missing or old, and that the install command makes it current. */
    private SQLException notCurrent(Connection connection, Integer recorded) throws SQLException {
        DriverSchema.ensure(connection, dialect, tables.schema(), InstallMode.NONE);
        if (recorded == null && !exists(connection, "repl_log")) {
            return SqlState.UNDEFINED_TABLE.exception("The driver's table repl_log does not exist in schema " + tables.schema()
                    + " and repl.install=none: create it with the CLI's install command, or set repl.install=auto");
        }
        return SchemaVersion.olderWithoutInstall(tables.schema(), recorded != null ? recorded : SchemaVersion.UNRECORDED);
    }

    /** Creates what is missing, runs the steps after {@code from} and records the current version. */
    private void bringUp(Connection connection, int from) throws SQLException {
        try (Statement s = connection.createStatement()) {
            for (String ddl : new TableDefinitions(dialect, tables).create()) s.execute(ddl);
            for (SchemaUpgrades.Step step : SchemaUpgrades.after(dialect, from)) {
                for (SchemaUpgrades.Column column : step.columns()) addMissingColumn(connection, column);
            }
            version.write(connection, SchemaVersion.CURRENT);
        } catch (SQLException e) {
            String what = from == SchemaVersion.NOTHING ? "create the driver's tables in schema " + tables.schema()
                    : "upgrade the driver's tables in schema " + tables.schema() + " from " + SchemaVersion.describe(from)
                            + " to version " + SchemaVersion.CURRENT;
            throw new SQLException("Could not " + what + ": " + e.getMessage()
                    + " (run the CLI's install command as a user who may, such as their owner)", e.getSQLState(), e);
        }
    }

    /** Looked up in the metadata first: MySQL 8 has no ADD COLUMN IF NOT EXISTS. */
    private void addMissingColumn(Connection connection, SchemaUpgrades.Column column) throws SQLException {
        String table = stored(column.table());
        String name = stored(column.name());
        try (ResultSet rs = connection.getMetaData().getColumns(catalog(), schemaPattern(), table, name)) {
            while (rs.next()) {
                if (name.equals(rs.getString("COLUMN_NAME"))) return;
            }
        }
        try (Statement s = connection.createStatement()) {
            s.execute("ALTER TABLE " + tables.table(column.table()) + " ADD COLUMN " + tables.quote(name) + " " + column.type());
        }
    }

    private boolean exists(Connection connection, String table) throws SQLException {
        String stored = stored(table);
        try (ResultSet rs = connection.getMetaData().getTables(catalog(), schemaPattern(), stored, null)) {
            while (rs.next()) {
                if (stored.equals(rs.getString("TABLE_NAME"))) return true;
            }
            return false;
        }
    }

    /** A name as the database stores it (H2 folds unquoted names to upper case). */
    private String stored(String name) {
        return dialect.fold(name, false);
    }

    /** MySQL's schemas are catalogs in JDBC's metadata. */
    private String catalog() {
        return dialect.schemasAreCatalogs() ? tables.schema() : null;
    }

    private String schemaPattern() {
        return dialect.schemasAreCatalogs() ? null : tables.schema();
    }
}
