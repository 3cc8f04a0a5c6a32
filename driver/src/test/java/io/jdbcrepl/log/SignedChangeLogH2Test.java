package io.jdbcrepl.log;

import static org.assertj.core.api.Assertions.assertThat;

import io.jdbcrepl.dialect.Dialect;
import io.jdbcrepl.config.InstallMode;
import io.jdbcrepl.config.LogSignature;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.Properties;
import java.util.UUID;
import org.junit.jupiter.api.Test;

/** repl.log.key on H2: LCRs signed at commit over the rows as stored; an older install gains the signature column. */
class SignedChangeLogH2Test {

    private static final String KEY = "an H2 shared secret ✓";

    @Test
    void capturedLcrsCarryTheirSignature() throws SQLException {
        String name = "signed_" + UUID.randomUUID().toString().replace("-", "");
        Properties p = new Properties();
        p.setProperty("repl.node", "n1");
        p.setProperty("repl.log.key", KEY);
        try (Connection c = DriverManager.getConnection("jdbc:repl:h2:mem:" + name + ";DB_CLOSE_DELAY=-1", p)) {
            try (Statement s = c.createStatement()) {
                s.execute("CREATE TABLE emp (id INT PRIMARY KEY, name VARCHAR(100000))");
                s.executeUpdate("INSERT INTO emp VALUES (1, 'Zoë 🎉'), (2, NULL), (3, '')"); // autocommit
            }
            c.setAutoCommit(false);
            try (PreparedStatement ps = c.prepareStatement("UPDATE emp SET name = ? WHERE id = ?")) {
                ps.setString(1, "✓".repeat(30_000));
                ps.setInt(2, 2);
                ps.executeUpdate();
            }
            try (Statement s = c.createStatement()) {
                s.executeUpdate("DELETE FROM emp WHERE id = 3");
            }
            c.commit();
        }
        LogSignature signature = LogSignature.of(KEY);
        int checked = 0;
        try (Connection raw = DriverManager.getConnection("jdbc:h2:mem:" + name); Statement s = raw.createStatement();
                ResultSet rs = s.executeQuery("SELECT POSITION, TX_ID, SOURCE_NODE, COMMAND_TYPE, SCHEMA_NAME, TABLE_NAME,"
                        + " OLD_VALUES, NEW_VALUES, COLUMN_TYPES, CHANGE_VECTOR, SIGNATURE FROM REPL.REPL_LOG")) {
            while (rs.next()) {
                assertThat(rs.getBytes(11)).as("position " + rs.getLong(1)).isNotNull().isEqualTo(signature.sign(
                        rs.getLong(1), rs.getString(2), rs.getString(3), rs.getString(4), rs.getString(5), rs.getString(6),
                        rs.getString(9), rs.getString(10), rs.getString(7), rs.getString(8)));
                checked++;
            }
            s.execute("SHUTDOWN");
        }
        assertThat(checked).as("the CREATE TABLE (a DDL LCR) and the four rows").isEqualTo(6);
    }

    @Test
    void anOlderInstallGainsTheSignatureColumn() throws SQLException {
        try (Connection c = DriverManager.getConnection("jdbc:h2:mem:")) {
            SchemaInstaller installer = new SchemaInstaller(Dialect.named("h2"), new ChangeLogSchema(Dialect.named("h2"), "REPL"));
            installer.install(c, InstallMode.AUTO);
            try (Statement s = c.createStatement()) {
                s.execute("ALTER TABLE REPL.REPL_LOG DROP COLUMN SIGNATURE"); // as an earlier version created it,
                s.execute("DROP TABLE REPL.REPL_VERSION"); // before versions were recorded
            }
            installer.install(c, InstallMode.AUTO);
            try (Statement s = c.createStatement();
                    ResultSet rs = s.executeQuery("SELECT count(*) FROM INFORMATION_SCHEMA.COLUMNS WHERE TABLE_SCHEMA = 'REPL'"
                            + " AND TABLE_NAME = 'REPL_LOG' AND COLUMN_NAME = 'SIGNATURE'")) {
                rs.next();
                assertThat(rs.getInt(1)).isEqualTo(1);
            }
        }
    }
}
