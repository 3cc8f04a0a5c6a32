package io.jdbcrepl.config;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;

class PropertyTableTest {

    private static final String BEGIN = "<!-- properties:begin -->";
    private static final String END = "<!-- properties:end -->";

    @Test
    void readmeTableIsTheCatalogue() throws Exception {
        // surefire runs in driver/, the README is at the top level
        String readme = Files.readString(Path.of("..", "README.md"), StandardCharsets.UTF_8).replace("\r\n", "\n");
        int begin = readme.indexOf(BEGIN + "\n");
        int end = readme.indexOf(END);
        assertThat(begin).as("README has " + BEGIN).isNotNegative();
        assertThat(end).as("README has " + END + " after " + BEGIN).isGreaterThan(begin);
        assertThat(readme.indexOf(BEGIN, begin + 1)).as("one table only").isNegative();
        String section = readme.substring(begin + BEGIN.length() + 1, end);
        assertThat(section)
                .as("README's property table is out of date: paste PropertyTable.markdown() between the markers")
                .isEqualTo(PropertyTable.markdown());
    }

    @Test
    void oneRowPerKeyInKeyOrder() {
        List<String> lines = PropertyTable.markdown().lines().toList();
        assertThat(lines).hasSize(ReplProperty.values().length + 2);
        assertThat(lines.get(0)).isEqualTo("| key | type | default | since | description |");
        for (int i = 0; i < ReplProperty.values().length; i++) {
            ReplProperty p = ReplProperty.values()[i];
            String row = lines.get(i + 2);
            assertThat(row).startsWith("| `" + p.key() + "` | ").endsWith(" |").contains(p.description());
            assertThat(row.split(" \\| ", -1)).as(row).hasSize(5);
        }
    }

    @Test
    void rowsShowTypesDefaultsAndChoices() {
        String table = PropertyTable.markdown();
        assertThat(table).contains("| `repl.install` | one of `auto`, `none` | `auto` | 0.1 |");
        assertThat(table).contains("| `repl.apply` | boolean | true if `repl.peers` is set |");
        assertThat(table).contains("| `repl.fk.retry` | duration | `30s` |");
        assertThat(table).contains("| `repl.nocompare.<table>` | columns or `*` |");
        assertThat(table).contains("| `repl.schema` | string | `repl` (PostgreSQL, H2) / `<database>_repl` (MariaDB/MySQL) |");
        assertThat(table).contains("| `repl.peer.<peer>.schema` | string | by the rule of `repl.schema` |");
        assertThat(Arrays.stream(ReplProperty.values()).filter(p -> !table.contains("`" + p.key() + "`"))).isEmpty();
    }
}
