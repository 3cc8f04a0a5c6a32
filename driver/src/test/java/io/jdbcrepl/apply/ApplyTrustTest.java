package io.jdbcrepl.apply;

import static org.assertj.core.api.Assertions.assertThat;

import io.jdbcrepl.dialect.Dialect;
import io.jdbcrepl.config.ReplConfig;
import io.jdbcrepl.lcr.CommandType;
import io.jdbcrepl.lcr.RowLcr;

import java.sql.SQLException;
import java.util.Properties;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** SPEC 8.7: which LCRs a node refuses from a peer, whoever wrote them into the peer's log. */
class ApplyTrustTest {

    private static ApplyTrust trust(Dialect dialect, String... kv) throws SQLException {
        Properties p = new Properties();
        p.setProperty("repl.node", "n2");
        p.setProperty("repl.peers", "n1");
        p.setProperty("repl.peer.n1.url", "jdbc:h2:mem:n1");
        for (int i = 0; i < kv.length; i += 2) p.setProperty(kv[i], kv[i + 1]);
        ReplConfig config = ReplConfig.load("jdbc:repl:h2:mem:n2", p);
        return new ApplyTrust(config, dialect, "n1", "src", "app", "repl");
    }

    private static RowLcr lcr(String source, String schema, String table) {
        return new RowLcr(source, CommandType.INSERT, schema, table, "1", 1, null, null, null, null, null, null);
    }

    @Test
    void anOrdinaryTableFromThePeerIsApplied() throws SQLException {
        assertThat(trust(Dialect.named("postgresql")).refusal(lcr("n1", "src", "employees"))).isNull();
        assertThat(trust(Dialect.named("postgresql")).refusal(lcr("N1", "hr", "employees"))).isNull(); // peer names are case-insensitive
    }

    @Test
    void anotherSourceNodeIsRefused() throws SQLException {
        assertThat(trust(Dialect.named("postgresql")).refusal(lcr("intruder", "src", "employees")))
                .contains("intruder", "not the peer it was read from");
        assertThat(trust(Dialect.named("postgresql")).refusal(lcr(null, "src", "employees"))).contains("null");
    }

    @Test
    void anEntryFromANodeThatIsNoPeerIsRefused() throws SQLException {
        ReplConfig config = ReplConfig.load("jdbc:repl:h2:mem:n2", new Properties());
        ApplyTrust t = new ApplyTrust(config, Dialect.named("h2"), "ghost", "src", "app", "repl");
        assertThat(t.refusal(lcr("ghost", "src", "employees"))).contains("ghost is not a peer");
    }

    @ParameterizedTest
    @CsvSource({"pg_catalog, pg_authid", "PG_CATALOG, pg_authid", "pg_toast, t", "information_schema, tables",
            "INFORMATION_SCHEMA, TABLES", "mysql, user", "MySQL, user", "performance_schema, threads", "sys, x",
            "SYS, employees"})
    void systemSchemasAreRefused(String schema, String table) throws SQLException {
        assertThat(trust(Dialect.named("h2")).refusal(lcr("n1", schema, table))).contains(schema, "system schema");
    }

    @ParameterizedTest
    @CsvSource({"src, repl_log", "src, repl_progress", "src, REPL_ERROR", "other, repl_tx", "src, MLOG$_EMP"})
    void driverTablesAreRefusedInAnySchema(String schema, String table) throws SQLException {
        assertThat(trust(Dialect.named("mariadb")).refusal(lcr("n1", schema, table))).contains(table, "driver's own tables");
    }

    @Test
    void excludedTablesAreRefusedByDefault() throws SQLException {
        ApplyTrust t = trust(Dialect.named("postgresql"), "repl.tables", "hr.*, employees", "repl.exclude", "hr.secret");
        assertThat(t.refusal(lcr("n1", "hr", "salaries"))).isNull();
        assertThat(t.refusal(lcr("n1", "src", "employees"))).isNull(); // the source's driver schema maps to ours, the current one
        assertThat(t.refusal(lcr("n1", "hr", "secret"))).contains("hr.secret", "repl.apply.tables");
        assertThat(t.refusal(lcr("n1", "sales", "orders"))).contains("sales.orders", "repl.apply.tables");
    }

    @Test
    void replApplyTablesDecidesWhenSet() throws SQLException {
        ApplyTrust t = trust(Dialect.named("h2"), "repl.exclude", "hr.secret", "repl.apply.tables", "hr.*");
        assertThat(t.refusal(lcr("n1", "HR", "SECRET"))).isNull(); // H2 folds to upper case
        assertThat(t.refusal(lcr("n1", "src", "employees"))).contains("repl.apply.tables");
        assertThat(trust(Dialect.named("h2"), "repl.apply.tables", "*.*").refusal(lcr("n1", "hr", "repl_log")))
                .contains("driver's own tables");
    }

    @Test
    void theDriversSchemaIsRefusedWhenItIsOneOfItsOwn() throws SQLException {
        assertThat(trust(Dialect.named("postgresql")).refusal(lcr("n1", "repl", "employees"))).contains("repl.employees", "driver's schema");
        assertThat(trust(Dialect.named("h2")).refusal(lcr("n1", "REPL", "EMPLOYEES"))).contains("driver's schema");
        ReplConfig config = ReplConfig.load("jdbc:repl:h2:mem:n2", props());
        ApplyTrust shared = new ApplyTrust(config, Dialect.named("postgresql"), "n1", "src", "app", "app"); // repl.schema = current schema
        assertThat(shared.refusal(lcr("n1", "src", "employees"))).isNull();
    }

    private static Properties props() {
        Properties p = new Properties();
        p.setProperty("repl.node", "n2");
        p.setProperty("repl.peers", "n1");
        p.setProperty("repl.peer.n1.url", "jdbc:h2:mem:n1");
        return p;
    }
}
