package io.jdbcrepl.spring;

import org.junit.jupiter.api.Test;
import org.springframework.core.env.MapPropertySource;
import org.springframework.core.env.StandardEnvironment;
import org.springframework.core.env.SystemEnvironmentPropertySource;

import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Properties;

import static org.assertj.core.api.Assertions.assertThat;

class DriverKeysTest {

    @Test
    void everyJdbcReplKeyBecomesAReplKey() {
        Properties keys = keys(Map.of(
                "jdbc-repl.node", "shop1",
                "jdbc-repl.peers", "shop2,shop3",
                "jdbc-repl.peer.shop2.url", "jdbc:postgresql://db2/shop",
                "jdbc-repl.handler.lww.type", "MAXIMUM",
                "jdbc-repl.loggroup.hr.emp.g1.always", "true",
                "spring.datasource.url", "jdbc:repl:postgresql://db1/shop"));
        assertThat(keys).containsOnly(
                Map.entry("repl.node", "shop1"),
                Map.entry("repl.peers", "shop2,shop3"),
                Map.entry("repl.peer.shop2.url", "jdbc:postgresql://db2/shop"),
                Map.entry("repl.handler.lww.type", "MAXIMUM"),
                Map.entry("repl.loggroup.hr.emp.g1.always", "true"));
    }

    @Test
    void listItemsBecomeOneCommaSeparatedValue() {
        Map<String, Object> yaml = new LinkedHashMap<>();
        yaml.put("jdbc-repl.tables[1]", "hr.*");
        yaml.put("jdbc-repl.tables[0]", "orders");
        assertThat(keys(yaml)).containsOnly(Map.entry("repl.tables", "orders,hr.*"));
    }

    @Test
    void environmentVariablesCountToo() {
        StandardEnvironment environment = new StandardEnvironment();
        environment.getPropertySources().replace(StandardEnvironment.SYSTEM_ENVIRONMENT_PROPERTY_SOURCE_NAME,
                new SystemEnvironmentPropertySource(StandardEnvironment.SYSTEM_ENVIRONMENT_PROPERTY_SOURCE_NAME,
                Map.of("JDBCREPL_NODE", "shop1", "JDBCREPL_PEER_SHOP2_URL", "jdbc:postgresql://db2/shop")));
        assertThat(DriverKeys.of(environment)).contains(
                Map.entry("repl.node", "shop1"), Map.entry("repl.peer.shop2.url", "jdbc:postgresql://db2/shop"));
    }

    @Test
    void theStartersOwnKeyStaysInTheStarterAndTheLagLimitIsTheDrivers() {
        assertThat(keys(Map.of("jdbc-repl.health.lag", "1m", "jdbc-repl.health.cache", "0s")))
                .containsExactly(Map.entry("repl.health.lag", "1m"));
    }

    private static Properties keys(Map<String, Object> properties) {
        StandardEnvironment environment = new StandardEnvironment();
        environment.getPropertySources().addFirst(new MapPropertySource("test", properties));
        return DriverKeys.of(environment);
    }
}
