package org.topupbatch.run;

import org.topupbatch.settings.Settings;

/** Planted for PackageLayersTest: a run class handed the whole settings instead of its group. */
public final class PlantedWholeSettings {

    PlantedWholeSettings(Settings settings) {
    }
}
