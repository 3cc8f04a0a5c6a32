package io.jdbcrepl.spring;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.jdbcrepl.config.ReplProperty;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.io.InputStream;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

/** The metadata IDEs complete {@code jdbc-repl.*} from, as the configuration processor wrote it into the jar. */
class ConfigurationMetadataTest {

    @Test
    void theCommonKeysAreDocumented() throws IOException {
        Map<String, JsonNode> properties = properties();
        assertThat(properties).containsKeys("jdbc-repl.node", "jdbc-repl.peers", "jdbc-repl.peer", "jdbc-repl.config",
                "jdbc-repl.tables", "jdbc-repl.exclude", "jdbc-repl.apply", "jdbc-repl.install", "jdbc-repl.schema",
                "jdbc-repl.timestamp", "jdbc-repl.health.lag", "jdbc-repl.health.cache");
        properties.forEach((name, p) -> assertThat(p.path("description").asText()).as(name).isNotBlank());
        assertThat(properties.get("jdbc-repl.health.lag").path("defaultValue").asText()).isEqualTo("30s");
        assertThat(properties.get("jdbc-repl.health.lag").path("type").asText()).isEqualTo("java.time.Duration");
        assertThat(metadata().path("hints").findValuesAsText("value")).contains("auto", "none");
    }

    /** Each declared key but the starter's own is a key of the driver's catalogue (SPEC 2), or the start of templated ones. */
    @Test
    void everyDriverKeyIsInTheDriversCatalogue() throws IOException {
        List<String> catalogue = Arrays.stream(ReplProperty.values()).map(ReplProperty::key).toList();
        List<String> unknown = new ArrayList<>();
        for (String name : properties().keySet()) {
            if (name.startsWith("jdbc-repl.health.")) continue;
            String key = "repl." + name.substring("jdbc-repl.".length());
            if (!catalogue.contains(key) && catalogue.stream().noneMatch(k -> k.startsWith(key + ".<"))) unknown.add(key);
        }
        assertThat(unknown).isEmpty();
    }

    private static Map<String, JsonNode> properties() throws IOException {
        Map<String, JsonNode> byName = new LinkedHashMap<>();
        metadata().path("properties").forEach(p -> byName.put(p.path("name").asText(), p));
        return byName;
    }

    private static JsonNode metadata() throws IOException {
        try (InputStream in = ConfigurationMetadataTest.class.getResourceAsStream("/META-INF/spring-configuration-metadata.json")) {
            assertThat(in).as("spring-configuration-metadata.json on the class path").isNotNull();
            return new ObjectMapper().readTree(in);
        }
    }
}
