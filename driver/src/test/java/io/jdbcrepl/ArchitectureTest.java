package io.jdbcrepl;

import static com.tngtech.archunit.core.domain.JavaClass.Predicates.resideInAPackage;
import static com.tngtech.archunit.core.domain.JavaClass.Predicates.resideInAnyPackage;
import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;
import static com.tngtech.archunit.library.dependencies.SlicesRuleDefinition.slices;
import static org.assertj.core.api.Assertions.assertThat;

import com.tngtech.archunit.base.DescribedPredicate;
import com.tngtech.archunit.core.domain.JavaClass;
import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import com.tngtech.archunit.library.dependencies.SliceAssignment;
import com.tngtech.archunit.library.dependencies.SliceIdentifier;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/**
 * The shape of the code (issue 18), read from the compiled classes of both modules (bytecode, so a
 * name written fully qualified inline counts like an import): no package cycles, a public API that
 * needs nothing internal, and vendor knowledge only in {@code dialect} packages.
 */
class ArchitectureTest {

    /** The main classes of {@code interceptors} and {@code driver}: this module's class path holds both. */
    private static final JavaClasses MAIN = new ClassFileImporter()
            .withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
            .importPackages("io.jdbcrepl");

    @Test
    void theImportSeesBothModules() {
        assertThat(MAIN.contain(ReplDriver.class)).isTrue();
        assertThat(MAIN.contain(io.jdbcrepl.intercept.ConnectionInterceptor.class)).isTrue();
    }

    /** Each package is a node of the graph (a package and its sub-package are two nodes); no exceptions. */
    @Test
    void noPackageCycles() {
        slices().assignedFrom(new SliceAssignment() {
            @Override
            public SliceIdentifier getIdentifierOf(JavaClass javaClass) {
                return SliceIdentifier.of(javaClass.getPackageName());
            }

            @Override
            public String getDescription() {
                return "packages of io.jdbcrepl";
            }
        }).should().beFreeOfCycles().check(MAIN);
    }

    /**
     * What a user's handler compiles against ({@code api}) needs nothing internal. The LCR and its
     * values ({@code lcr}: {@code RowLcr}, {@code RowImage}, {@code TypedValue}, {@code ValueType})
     * are public too: handlers read and change them, and the capture side builds them, so they live
     * in the interceptors module; that package must then need nothing internal either.
     */
    @Test
    void apiNeedsNothingInternal() {
        DescribedPredicate<JavaClass> internal = resideInAPackage("io.jdbcrepl..")
                .and(DescribedPredicate.not(resideInAnyPackage("io.jdbcrepl.api..", "io.jdbcrepl.lcr..")))
                .as("internal classes of io.jdbcrepl (outside api and lcr)");
        noClasses().that().resideInAnyPackage("io.jdbcrepl.api..", "io.jdbcrepl.lcr..")
                .should().dependOnClassesThat(internal).check(MAIN);
    }

    // ---- vendor knowledge ----

    /**
     * What counts as vendor knowledge in a class (nested and synthetic classes count as their
     * top-level class). There is no enum of databases to branch on: a {@code Dialect} is a class per
     * database, and the rest of the code asks it or its parts.
     * <ul>
     *   <li>{@code class}: it references a vendor driver's class or a vendor's dialect package ({@link #VENDOR_PACKAGES}): an import,
     *       a cast, a {@code .class};
     *   <li>{@code name}: it holds a vendor driver's class name as text ({@code "org.postgresql.PGConnection"}),
     *       to load it reflectively;
     *   <li>{@code named}: it is itself named for a vendor (a class name starting with
     *       {@code Postgres}, {@code Pg}, {@code MariaDb}, {@code MySql}, {@code H2}..., or a package
     *       {@code pg}, {@code postgresql}, {@code mariadb}, {@code mysql}, {@code h2}).
     * </ul>
     * All of it belongs in a {@code dialect} package ({@code io.jdbcrepl.dialect} and its
     * sub-packages, one per vendor).
     */
    private static final List<String> VENDOR_PACKAGES = List.of("org.postgresql", "org.mariadb", "com.mysql", "org.h2",
            "io.jdbcrepl.dialect.postgresql", "io.jdbcrepl.dialect.mariadb", "io.jdbcrepl.dialect.mysql", "io.jdbcrepl.dialect.h2");
    private static final Pattern VENDOR_NAMED = Pattern.compile(
            "(Postgres|Pg|PG|MariaDb|Mariadb|MySql|Mysql|MySQL|H2)[A-Z0-9].*");
    private static final Set<String> VENDOR_PACKAGE_NAMES = Set.of("pg", "postgresql", "mariadb", "mysql", "h2");

    @Test
    void vendorKnowledgeOnlyInDialectPackages() {
        Set<String> found = new TreeSet<>();
        for (JavaClass c : MAIN) {
            if (inDialectPackage(c) || c.getSimpleName().equals("package-info")) continue;
            String owner = topLevel(c).getName().substring("io.jdbcrepl.".length());
            if (c.getDirectDependenciesFromSelf().stream().anyMatch(d -> isVendorDriverClass(d.getTargetClass()))) {
                found.add(owner + " class");
            }
            if (namesVendorClass(c)) found.add(owner + " name");
            if (namedForVendor(topLevel(c))) found.add(owner + " named");
        }
        assertThat(found).as("vendor knowledge outside dialect packages (move it into the vendor's dialect package,"
                + " behind a part or a Dialect method)").isEmpty();
    }

    private static boolean inDialectPackage(JavaClass c) {
        return c.getPackageName().equals("io.jdbcrepl.dialect") || c.getPackageName().startsWith("io.jdbcrepl.dialect.");
    }

    private static JavaClass topLevel(JavaClass c) {
        JavaClass top = c;
        while (top.getEnclosingClass().isPresent()) top = top.getEnclosingClass().get();
        if (top.getName().contains("$")) { // a synthetic class (a switch's map) has no enclosing class
            String name = top.getName().substring(0, top.getName().indexOf('$'));
            top = MAIN.contain(name) ? MAIN.get(name) : top;
        }
        return top;
    }

    private static boolean isVendorDriverClass(JavaClass target) {
        JavaClass base = target.isArray() ? target.getBaseComponentType() : target;
        return VENDOR_PACKAGES.stream().anyMatch(p -> base.getPackageName().equals(p) || base.getPackageName().startsWith(p + "."));
    }

    private static boolean namedForVendor(JavaClass c) {
        String[] packages = c.getPackageName().split("\\.");
        return VENDOR_NAMED.matcher(c.getSimpleName()).matches() || VENDOR_PACKAGE_NAMES.contains(packages[packages.length - 1]);
    }

    /** A vendor class name as text: the class file's constant pool holds {@code org.postgresql.} and the like. */
    private static boolean namesVendorClass(JavaClass c) {
        String pool = new String(bytes(c), StandardCharsets.ISO_8859_1);
        return VENDOR_PACKAGES.stream().anyMatch(p -> pool.contains(p + "."));
    }

    private static byte[] bytes(JavaClass c) {
        String resource = "/" + c.getName().replace('.', '/') + ".class";
        try (InputStream in = ArchitectureTest.class.getResourceAsStream(resource)) {
            if (in == null) throw new IllegalStateException("no class file " + resource);
            return in.readAllBytes();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
