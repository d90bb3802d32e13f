package repro

// leePinned are our ratios to EASY at 1.5x load (see leeRanking).
var leePinned = map[string]float64{}
