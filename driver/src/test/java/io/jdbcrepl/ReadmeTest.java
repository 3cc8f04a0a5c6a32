package io.jdbcrepl;

import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/** The README's commands stay true: CI runs exactly the README's test command. */
class ReadmeTest {

    private static final Path ROOT = Path.of("..");

    @Test
    void ciRunsExactlyTheReadmesTestCommand() throws IOException {
        String readme = Files.readString(ROOT.resolve("README.md"));
        List<String> ci = Files.readAllLines(ROOT.resolve(".ci/run"));
        String ciCommand = ci.stream().filter(l -> l.startsWith("mvn ")).findFirst().orElseThrow();
        assertThat(readme).contains("Run the tests").contains("```\n" + ciCommand + "\n```");
    }

    @Test
    void theMainJobsJarIsTheOneTheBuildMakes() throws IOException {
        String readme = Files.readString(ROOT.resolve("README.md"));
        String pom = Files.readString(ROOT.resolve("pom.xml"));
        String version = pom.replaceAll("(?s).*?<artifactId>jdbc-repl-parent</artifactId>\\s*<version>([^<]+)</version>.*", "$1");
        assertThat(readme).contains("java -jar driver/target/jdbc-repl-driver-" + version + ".jar demo");
    }
}
