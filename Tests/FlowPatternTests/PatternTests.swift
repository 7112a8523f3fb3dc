import FlowPattern
import Testing
