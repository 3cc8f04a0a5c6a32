package io.jdbcrepl.it;

import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.io.InputStream;
import java.net.URL;
import java.net.URLClassLoader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.Driver;
import java.sql.ResultSet;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Properties;
import java.util.ServiceLoader;
import java.util.concurrent.TimeUnit;
import java.util.jar.JarEntry;
import java.util.jar.JarFile;
import java.util.jar.Manifest;
import java.util.stream.Collectors;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.fail;

/**
 * The jar users install (system property {@code repl.driverJar}, set by failsafe to the driver
 * module's shaded jar): registered as a JDBC driver, executable, Byte Buddy and JSqlParser
 * relocated inside it, nothing else on the user's class path taken over.
 */
class ShadedJarIT {

    private static final String SHADED = "io/jdbcrepl/shaded/";

    private static Path jar;
    private static List<String> entries;

    @BeforeAll
    static void openJar() throws IOException {
        String property = System.getProperty("repl.driverJar");
        assertThat(property).as("system property repl.driverJar (set by failsafe in integration-tests/pom.xml)")
                .isNotBlank();
        jar = Path.of(property);
        assertThat(jar).as("the driver jar; build it first with mvn install -DskipTests").isRegularFile();
        try (JarFile file = new JarFile(jar.toFile())) {
            entries = Collections.list(file.entries()).stream().map(JarEntry::getName).collect(Collectors.toList());
        }
    }

    @Test
    void registersTheDriverWithServiceLoader() throws IOException {
        try (JarFile file = new JarFile(jar.toFile())) {
            JarEntry services = file.getJarEntry("META-INF/services/java.sql.Driver");
            assertThat(services).as("META-INF/services/java.sql.Driver").isNotNull();
            List<String> drivers = new ArrayList<>();
            try (InputStream in = file.getInputStream(services)) {
                for (String line : new String(in.readAllBytes(), StandardCharsets.UTF_8).split("\\R")) {
                    String name = line.replaceAll("#.*", "").trim();
                    if (!name.isEmpty()) drivers.add(name);
                }
            }
            assertThat(drivers).containsExactly("io.jdbcrepl.ReplDriver");
        }
        assertThat(entries).contains("io/jdbcrepl/ReplDriver.class");
    }

    /**
     * Flyway and Liquibase find the driver for jdbc:repl: URLs through the plugins the jar registers
     * for their ServiceLoaders; neither tool is bundled (bringsNoClassesOutsideItsOwnPackage).
     */
    @Test
    void registersTheMigrationToolPlugins() throws IOException {
        try (JarFile file = new JarFile(jar.toFile())) {
            assertThat(text(file, "META-INF/services/org.flywaydb.core.extensibility.Plugin").trim())
                    .isEqualTo("io.jdbcrepl.migration.ReplFlywayDatabaseType");
            assertThat(text(file, "META-INF/services/liquibase.database.Database").trim())
                    .isEqualTo("io.jdbcrepl.migration.ReplLiquibaseDatabase");
        }
    }

    @Test
    void isExecutableWithTheCliAsMainClass() throws IOException {
        try (JarFile file = new JarFile(jar.toFile())) {
            Manifest manifest = file.getManifest();
            assertThat(manifest).as("META-INF/MANIFEST.MF of the shaded jar").isNotNull();
            assertThat(manifest.getMainAttributes().getValue("Main-Class")).isEqualTo("io.jdbcrepl.cli.Main");
            assertThat(manifest.getMainAttributes().getValue("Automatic-Module-Name")).isEqualTo("io.jdbcrepl.driver");
        }
        assertThat(entries).contains("io/jdbcrepl/cli/Main.class");
    }

    @Test
    void relocatesByteBuddyAndJSqlParser() {
        assertThat(entries).as("relocated Byte Buddy").anyMatch(e -> e.startsWith(SHADED + "bytebuddy/") && e.endsWith(".class"));
        assertThat(entries).as("relocated JSqlParser").anyMatch(e -> e.startsWith(SHADED + "jsqlparser/") && e.endsWith(".class"));
        // also inside META-INF/versions/<n>/ (Byte Buddy is a multi-release jar)
        assertThat(entries).as("entries left at Byte Buddy's own package").noneMatch(e -> e.contains("net/bytebuddy/"));
        assertThat(entries).as("entries left at JSqlParser's own package").noneMatch(e -> e.contains("net/sf/jsqlparser/"));
    }

    @Test
    void bringsNoClassesOutsideItsOwnPackage() {
        // vendor drivers are provided by the application, SLF4J is optional: none of them is bundled
        List<String> foreign = entries.stream()
                .filter(e -> e.endsWith(".class"))
                .map(e -> e.replaceFirst("^META-INF/versions/\\d+/", ""))
                .filter(e -> !e.startsWith("io/jdbcrepl/"))
                .filter(e -> !e.equals("module-info.class"))
                .collect(Collectors.toList());
        assertThat(foreign).as("classes outside io/jdbcrepl/").isEmpty();
    }

    /**
     * META-INF/LICENSE is the project's Apache-2.0, META-INF/NOTICE names what is bundled, and no
     * bundled licence file says otherwise (JSqlParser's jar has a GPL-2.0 text at its root, though
     * the driver uses it under Apache-2.0).
     */
    @Test
    void carriesTheProjectsLicenceAndTheNoticesOfWhatItBundles() throws IOException {
        try (JarFile file = new JarFile(jar.toFile())) {
            assertThat(text(file, "META-INF/LICENSE")).as("META-INF/LICENSE")
                    .isEqualTo(Files.readString(Path.of("..", "LICENSE")));
            assertThat(text(file, "META-INF/NOTICE")).as("META-INF/NOTICE")
                    .contains("Copyright 2026 the jdbc:repl authors")
                    .contains("Byte Buddy", "Rafael Winterhalter", "ASM", "META-INF/licenses/ASM")
                    .contains("JSqlParser", "under the Apache License, Version 2.0");
            assertThat(text(file, "META-INF/licenses/ASM")).as("ASM's licence, bundled by Byte Buddy")
                    .contains("INRIA");
        }
        List<String> licenceFiles = entries.stream()
                .filter(e -> !e.endsWith("/") && !e.endsWith(".class"))
                .filter(e -> e.replaceFirst(".*/", "").matches("(?i).*(licen[cs]e|notice|copying|third-party).*")
                        || e.startsWith("META-INF/licenses/"))
                .collect(Collectors.toList());
        assertThat(licenceFiles).containsExactlyInAnyOrder("META-INF/LICENSE", "META-INF/NOTICE", "META-INF/licenses/ASM");
    }

    private static String text(JarFile file, String name) throws IOException {
        JarEntry entry = file.getJarEntry(name);
        assertThat(entry).as(name).isNotNull();
        try (InputStream in = file.getInputStream(entry)) {
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        }
    }

    @Test
    void helpRunsAsAChildProcess(@TempDir Path dir) throws Exception {
        Path output = dir.resolve("help.txt");
        Path java = Path.of(System.getProperty("java.home"), "bin", "java");
        Process process = new ProcessBuilder(java.toString(), "-jar", jar.toString(), "--help")
                .redirectErrorStream(true)
                .redirectOutput(output.toFile())
                .start();
        if (!process.waitFor(60, TimeUnit.SECONDS)) {
            process.destroyForcibly();
            fail("java -jar " + jar + " --help did not end within 60 s");
        }
        String text = Files.readString(output);
        assertThat(process.exitValue()).as("exit code of --help; it printed:%n%s", text).isZero();
        assertThat(text.toLowerCase()).contains("usage");
        // the commands of SPEC 7
        assertThat(text).contains("demo", "status", "wait", "errors", "verify", "apply", "install");
    }

    /**
     * The jar alone, in a class loader that sees only it and H2 (no SLF4J, Flyway, Liquibase or other
     * driver): ServiceLoader finds the driver, and a pass-through connection and capture work.
     */
    @Test
    void worksAloneWithoutSlf4j() throws Exception {
        URL h2 = org.h2.Driver.class.getProtectionDomain().getCodeSource().getLocation();
        // DriverManager loads the class path's drivers once, through the context class loader of
        // its first caller: let that be this JVM's own, not the isolated one, or the tests after
        // this one in the JVM find no driver
        java.sql.DriverManager.getDrivers();
        ClassLoader previous = Thread.currentThread().getContextClassLoader();
        try (URLClassLoader isolated = new URLClassLoader(new URL[] {jar.toUri().toURL(), h2},
                ClassLoader.getPlatformClassLoader())) {
            Thread.currentThread().setContextClassLoader(isolated);
            try {
                assertThat(tryLoad(isolated, "org.slf4j.LoggerFactory")).as("SLF4J is not visible").isFalse();
                assertThat(tryLoad(isolated, "org.flywaydb.core.Flyway")).as("Flyway is not visible").isFalse();
                assertThat(tryLoad(isolated, "liquibase.database.Database")).as("Liquibase is not visible").isFalse();
                Driver repl = null;
                for (Driver d : ServiceLoader.load(Driver.class, isolated)) {
                    if (d.getClass().getName().equals("io.jdbcrepl.ReplDriver")) repl = d;
                }
                assertThat(repl).as("io.jdbcrepl.ReplDriver through ServiceLoader").isNotNull();
                assertThat(repl.getClass().getClassLoader()).isSameAs(isolated);
                Properties credentials = new Properties();
                credentials.setProperty("user", "sa");
                credentials.setProperty("password", "");
                try (Connection c = repl.connect("jdbc:repl:h2:mem:shaded_jar_it", credentials);
                        Statement s = c.createStatement(); ResultSet rs = s.executeQuery("SELECT 40 + 2")) {
                    assertThat(c.getClass().getClassLoader()).as("the proxy comes from the jar").isSameAs(isolated);
                    assertThat(rs.next()).isTrue();
                    assertThat(rs.getInt(1)).isEqualTo(42);
                }
                // capture too, without the migration tools whose plugins the jar registers
                try (Connection c = repl.connect("jdbc:repl:h2:mem:shaded_jar_it_node;DB_CLOSE_DELAY=-1?repl.node=n1", credentials);
                        Statement s = c.createStatement()) {
                    s.execute("CREATE TABLE note (id INT PRIMARY KEY)");
                    assertThat(s.executeUpdate("INSERT INTO note VALUES (1)")).isEqualTo(1);
                    try (ResultSet rs = s.executeQuery("SELECT count(*) FROM repl.repl_log WHERE command_type = 'INSERT'")) {
                        assertThat(rs.next()).isTrue();
                        assertThat(rs.getInt(1)).as("LCRs").isEqualTo(1);
                    }
                }
            } finally {
                deregister(isolated, "io.jdbcrepl.ReplDriver", "deregister");
                deregister(isolated, "org.h2.Driver", "unload");
                Thread.currentThread().setContextClassLoader(previous);
            }
        }
    }

    private static boolean tryLoad(ClassLoader loader, String name) {
        try {
            Class.forName(name, false, loader);
            return true;
        } catch (ClassNotFoundException e) {
            return false;
        }
    }

    /** Removes what the isolated loader registered with the JVM-wide DriverManager. */
    private static void deregister(ClassLoader loader, String className, String method) {
        try {
            Class<?> type = Class.forName(className, false, loader);
            type.getMethod(method).invoke(null);
        } catch (ReflectiveOperationException | RuntimeException ignored) {
            // not loaded or not registered: nothing to undo
        }
    }
}
