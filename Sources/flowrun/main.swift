import FlowCommands

CommandLineTool.main()
