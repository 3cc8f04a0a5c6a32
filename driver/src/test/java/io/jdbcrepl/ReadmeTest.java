package io.jdbcrepl;

import io.jdbcrepl.config.ReplConfig;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import java.util.Properties;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The README's commands and snippets stay true: CI runs exactly the README's test command, the jar
 * and the dependency it names are the ones the build makes (the driver module's coordinates, which
 * surefire passes as system properties), and its Kotlin snippet's keys are ones the driver takes.
 * (The Java quick start and HikariCP snippets compile and run in QuickStartIT.)
 */
class ReadmeTest {

    private static final Path ROOT = Path.of("..");

    private static String readme;
    private static String groupId;
    private static String artifactId;
    private static String version;

    @BeforeAll
    static void readIt() throws IOException {
        readme = Files.readString(ROOT.resolve("README.md")).replace("\r\n", "\n");
        groupId = property("repl.groupId");
        artifactId = property("repl.artifactId");
        version = property("repl.version");
    }

    private static String property(String name) {
        String value = System.getProperty(name);
        assertThat(value).as("system property %s (set by surefire in driver/pom.xml)", name).isNotBlank();
        return value;
    }

    @Test
    void ciRunsExactlyTheReadmesTestCommand() throws IOException {
        List<String> ci = Files.readAllLines(ROOT.resolve(".ci/run"));
        String ciCommand = ci.stream().filter(l -> l.startsWith("mvn ")).findFirst().orElseThrow();
        assertThat(readme).contains("Run the tests").contains("```\n" + ciCommand + "\n```");
    }

    @Test
    void theMainJobsJarIsTheOneTheBuildMakes() {
        assertThat(readme).contains("java -jar driver/target/" + artifactId + "-" + version + ".jar demo");
    }

    /** Every driver/target jar the README and docs name is this version's. */
    @Test
    void everyJarPathNamesThisVersion() throws IOException {
        List<Path> pages = new ArrayList<>(List.of(ROOT.resolve("README.md")));
        try (Stream<Path> docs = Files.list(ROOT.resolve("docs"))) {
            docs.filter(p -> p.toString().endsWith(".md")).sorted().forEach(pages::add);
        }
        Pattern jar = Pattern.compile("driver/target/" + Pattern.quote(artifactId) + "-([^/\\s`]*?)\\.jar");
        int seen = 0;
        for (Path page : pages) {
            Matcher m = jar.matcher(Files.readString(page));
            while (m.find()) {
                seen++;
                assertThat(m.group(1)).as("%s: %s", page.getFileName(), m.group()).isEqualTo(version);
            }
        }
        assertThat(seen).as("jar paths found").isGreaterThanOrEqualTo(4);
    }

    @Test
    void theMavenDependenciesAreTheDriversAndTheStartersCoordinates() {
        String dependency = """
                <dependency>
                  <groupId>%s</groupId>
                  <artifactId>%s</artifactId>
                  <version>%s</version>
                </dependency>
                """;
        assertThat(block("xml", "<artifactId>" + artifactId + "<")).isEqualTo(dependency.formatted(groupId, artifactId, version));
        // the starter is a module of the same build: same group and version (spring-boot-starter/pom.xml)
        assertThat(block("xml", "spring-boot-starter<")).isEqualTo(
                dependency.formatted(groupId, "jdbc-repl-spring-boot-starter", version));
    }

    @Test
    void theGradleDependencyAndTheProseNameTheDriversCoordinates() {
        String coordinates = groupId + ":" + artifactId + ":" + version;
        assertThat(block("kotlin", "dependencies {")).contains("implementation(\"" + coordinates + "\")");
        Matcher mentioned = Pattern.compile(Pattern.quote(groupId + ":" + artifactId + ":") + "[^\"`\\s]+").matcher(readme);
        int seen = 0;
        while (mentioned.find()) {
            seen++;
            assertThat(mentioned.group()).isEqualTo(coordinates);
        }
        assertThat(seen).as("mentions of the coordinates").isGreaterThanOrEqualTo(2);
    }

    /** The Kotlin snippet: its URL is the driver's and its keys, with that URL, make a configuration the driver takes. */
    @Test
    void theKotlinSnippetsKeysAreTheDrivers() throws SQLException {
        String kotlin = block("kotlin", "DriverManager.getConnection");
        Properties properties = new Properties();
        Matcher set = Pattern.compile("setProperty\\(\"([^\"]+)\", \"([^\"]*)\"\\)").matcher(kotlin);
        while (set.find()) properties.setProperty(set.group(1), set.group(2));
        assertThat(properties).containsKeys("repl.node", "repl.peers");
        Matcher url = Pattern.compile("getConnection\\(\"([^\"]+)\", props\\)").matcher(kotlin);
        assertThat(url.find()).as("the snippet's getConnection(url, props)").isTrue();
        assertThat(new ReplDriver().acceptsURL(url.group(1))).as(url.group(1)).isTrue();
        ReplConfig config = ReplConfig.load(url.group(1), properties);
        assertThat(config.node()).contains("n1");
        assertThat(config.peers()).containsExactly("n2");
    }

    /** The one fenced block of {@code language} that contains {@code marker}, without its fences. */
    private static String block(String language, String marker) {
        Matcher blocks = Pattern.compile("(?s)```" + language + "\n(.*?)```").matcher(readme);
        List<String> found = new ArrayList<>();
        while (blocks.find()) {
            if (blocks.group(1).contains(marker)) found.add(blocks.group(1));
        }
        assertThat(found).as("```%s blocks of the README with %s", language, marker).hasSize(1);
        return found.get(0);
    }
}
