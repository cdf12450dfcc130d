package org.topupbatch.journal;

import org.topupbatch.intake.BatchRow;

/** Planted for PackageLayersTest: a journal class that uses intake, which lies above the journal. */
public final class PlantedUpwardUse {

    BatchRow row;
}
