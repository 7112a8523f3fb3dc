// FlowRender: see Package.swift for this module's place in the layers.
