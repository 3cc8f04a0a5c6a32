package io.jdbcrepl.log;

import static org.assertj.core.api.Assertions.assertThat;

import io.jdbcrepl.dialect.Dialect;

import java.util.List;
import org.junit.jupiter.api.Test;

class GrantsTest {

    @Test
    void postgresqlReaderNeverDeletesAndApplyPurges() {
        List<String> lines = new Grants(Dialect.named("postgresql"), "repl", "hr", "public").statements("n1", "a", "b", "c");
        assertThat(lines).contains("GRANT SELECT, INSERT ON \"repl\".\"repl_log\" TO \"a\";",
                "GRANT USAGE ON SEQUENCE \"repl\".\"repl_log_position_seq\" TO \"a\";",
                "GRANT SELECT, DELETE ON \"repl\".\"repl_log\" TO \"b\";",
                "GRANT SELECT, INSERT, UPDATE ON \"repl\".\"repl_subscriber\" TO \"c\";",
                "--   CREATE ROLE \"c\" LOGIN PASSWORD '<secret>';");
        assertThat(lines).filteredOn(l -> l.contains("TO \"c\"")).noneMatch(l -> l.contains("DELETE") || l.contains("public"));
        assertThat(lines).filteredOn(l -> !l.isEmpty() && !l.startsWith("--")).allMatch(l -> l.startsWith("GRANT ") && l.endsWith(";"));
    }

    @Test
    void mariaDbUsersAreNameAtHostAndTheReaderClosesEpochs() {
        Grants grants = new Grants(Dialect.named("mariadb"), "hr_repl", "hr", "hr");
        List<String> lines = grants.statements("n1", "a@10.0.0.%", "b", "c");
        assertThat(lines).contains("GRANT SELECT, UPDATE ON `hr_repl`.`repl_epoch` TO 'c'@'%';",
                "GRANT SELECT ON `hr`.* TO 'c'@'%';",
                "GRANT CREATE TEMPORARY TABLES ON `hr`.* TO 'a'@'10.0.0.%';",
                "GRANT SELECT, DELETE ON `hr_repl`.`repl_tx` TO 'b'@'%';");
        assertThat(lines).filteredOn(l -> l.contains("TO 'c'@'%'")).noneMatch(l -> l.contains("DELETE"));
    }

    /** Connect reads the version of the driver's tables, as the application or as the apply user; peers never do. */
    @Test
    void theApplicationAndApplyUsersMayReadTheVersion() {
        List<String> lines = new Grants(Dialect.named("postgresql"), "repl", "hr", "public").statements("n1", "a", "b", "c");
        assertThat(lines).contains("GRANT SELECT ON \"repl\".\"repl_version\" TO \"a\";",
                "GRANT SELECT ON \"repl\".\"repl_version\" TO \"b\";");
        assertThat(lines).filteredOn(l -> l.contains("TO \"c\"")).noneMatch(l -> l.contains("repl_version"));
        assertThat(new Grants(Dialect.named("mariadb"), "hr_repl", "hr", "hr").statements("n1", "a", "b", "c"))
                .contains("GRANT SELECT ON `hr_repl`.`repl_version` TO 'a'@'%';");
    }

    @Test
    void h2HasNothingToGrant() {
        assertThat(new Grants(Dialect.named("h2"), "REPL", "X", "PUBLIC").statements("n1", "a", "b", "c"))
                .singleElement().asString().startsWith("-- H2");
    }
}
