package org.topupbatch.architecture;

import static org.assertj.core.api.Assertions.assertThat;

import com.tngtech.archunit.core.domain.Dependency;
import com.tngtech.archunit.core.domain.JavaClass;
import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The packages are rooms by job in the order data flows (docs/architecture.md#how-it-works): a package may
 * use only those below it in {@link #LAYERS}, so there is no upward and no circular use; the
 * sandbox uses nothing of the product. Read on the compiled classes (ArchUnit), so a fully
 * qualified name in code counts as much as an import.
 */
class PackageLayersTest {

    /** Top to bottom. A new package must be placed here, or {@link #everyPackageHasItsPlace} fails. */
    static final List<String> LAYERS = List.of(
            "command", "config", "run", "door", "sftp", "intake", "submit", "reconcile", "track", "report", "observe", "cluster",
            "notify", "journal", "provider", "settings", "text");
    /** Beside the product: the product may start it (the embedded sandbox), it never uses the product. */
    static final String SANDBOX = "sandbox";
    static final String ROOT = "org.topupbatch";

    private static JavaClasses product;

    @BeforeAll
    static void readClasses() {
        product = new ClassFileImporter().withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
                .importPackages(ROOT);
    }

    @Test
    void everyPackageHasItsPlace() {
        Set<String> unplaced = new TreeSet<>();
        for (JavaClass c : product) {
            String p = roomOf(c.getPackageName());
            if (p != null && !LAYERS.contains(p) && !p.equals(SANDBOX)) {
                unplaced.add(p);
            }
        }
        assertThat(unplaced).as("packages missing from PackageLayersTest.LAYERS").isEmpty();
    }

    @Test
    void noPackageUsesOneAboveItOrItself() {
        assertThat(violations(product)).as("uses of a package above (the order is PackageLayersTest.LAYERS)").isEmpty();
    }

    @Test
    void theGuardSeesAnUpwardUse() {
        // The rule must be able to fail: a class of the test tree placed in 'journal' that uses 'intake'.
        JavaClasses planted = new ClassFileImporter().importClasses(
                org.topupbatch.journal.PlantedUpwardUse.class, org.topupbatch.intake.BatchRow.class);
        assertThat(violations(planted)).singleElement().asString()
                .contains("journal.PlantedUpwardUse").contains("intake.BatchRow");
    }

    /**
     * Each area receives only its group of settings (issue 33): the whole {@code Settings} stays in
     * settings/ and config/, which hand the groups out; no other class keeps it in a field, takes it in
     * a constructor or method, or returns it.
     */
    @Test
    void onlySettingsAndConfigHoldTheWholeSettings() {
        assertThat(wholeSettingsHolders(product)).as("classes outside settings/ and config/ handed the whole Settings").isEmpty();
    }

    @Test
    void theGuardSeesTheWholeSettingsHandedOut() {
        JavaClasses planted = new ClassFileImporter().importClasses(org.topupbatch.run.PlantedWholeSettings.class);
        assertThat(wholeSettingsHolders(planted)).singleElement().asString().contains("run.PlantedWholeSettings");
    }

    static List<String> wholeSettingsHolders(JavaClasses classes) {
        String whole = org.topupbatch.settings.Settings.class.getName();
        List<String> found = new ArrayList<>();
        for (JavaClass c : classes) {
            String room = roomOf(c.getPackageName());
            if (room == null || room.equals("settings") || room.equals("config")) {
                continue;
            }
            c.getFields().stream().filter(f -> f.getRawType().getName().equals(whole))
                    .forEach(f -> found.add(f.getFullName()));
            c.getCodeUnits().stream()
                    .filter(u -> u.getRawParameterTypes().stream().anyMatch(t -> t.getName().equals(whole))
                            || u.getRawReturnType().getName().equals(whole))
                    .forEach(u -> found.add(u.getFullName()));
        }
        return found;
    }

    /** One line per offending dependency: who, on what, where. */
    static List<String> violations(JavaClasses classes) {
        List<String> found = new ArrayList<>();
        for (JavaClass c : classes) {
            String from = roomOf(c.getPackageName());
            if (from == null) {
                continue;
            }
            for (Dependency d : c.getDirectDependenciesFromSelf()) {
                String to = roomOf(d.getTargetClass().getPackageName());
                if (to == null || to.equals(from)) {
                    continue;
                }
                if (!allowed(from, to)) {
                    found.add(from + " -> " + to + ": " + d.getDescription());
                }
            }
        }
        return found;
    }

    static boolean allowed(String from, String to) {
        if (from.equals(SANDBOX)) {
            return false;
        }
        if (to.equals(SANDBOX)) {
            return true;
        }
        int f = LAYERS.indexOf(from);
        int t = LAYERS.indexOf(to);
        return f >= 0 && t > f;
    }

    /** The first package level under org.topupbatch, or null outside the product. */
    static String roomOf(String packageName) {
        if (!packageName.startsWith(ROOT + ".")) {
            return null;
        }
        String rest = packageName.substring(ROOT.length() + 1);
        int dot = rest.indexOf('.');
        return dot < 0 ? rest : rest.substring(0, dot);
    }
}
